package io.insika.router.strategies.ketama;

import java.util.List;
import java.util.Optional;

import io.insika.router.api.Backend;
import io.insika.router.api.Picker;
import io.insika.router.strategies.placement.BackendSet;
import io.insika.router.strategies.placement.OwnerMemo;

/**
 * Places a key on the first ring point at or after its MD5 hash. A session's key comes back on
 * every request, so the owners of recent keys are remembered: MD5 alone costs more than the
 * rest of a pick.
 */
final class KetamaPicker implements Picker {

    private final BackendSet backends;
    private final OwnerMemo owners;

    KetamaPicker(BackendSet backends, KetamaRing ring) {
        this.backends = backends;
        this.owners = new OwnerMemo(key -> ring.ownerOf(KetamaRing.keyHash(key)));
    }

    @Override
    public Optional<Backend> pick(String key) {
        // One backend owns everything; zero own nothing. Neither needs the hash.
        return switch (backends.size()) {
            case 0 -> Optional.empty();
            case 1 -> backends.owner(0);
            default -> backends.owner(owners.ownerOf(key));
        };
    }

    @Override
    public List<Backend> backends() {
        return backends.list();
    }
}
