package io.insika.router.strategies.ketama;

import java.util.List;
import java.util.Optional;

import io.insika.router.api.Backend;
import io.insika.router.api.Picker;
import io.insika.router.strategies.placement.BackendSet;

/** Places a key on the first ring point at or after its MD5 hash. */
final class KetamaPicker implements Picker {

    private final BackendSet backends;
    private final KetamaRing ring;

    KetamaPicker(BackendSet backends, KetamaRing ring) {
        this.backends = backends;
        this.ring = ring;
    }

    @Override
    public Optional<Backend> pick(String key) {
        // One backend owns everything; zero own nothing. Neither needs the hash.
        return switch (backends.size()) {
            case 0 -> Optional.empty();
            case 1 -> backends.owner(0);
            default -> backends.owner(ring.ownerOf(KetamaRing.keyHash(key)));
        };
    }

    @Override
    public List<Backend> backends() {
        return backends.list();
    }
}
