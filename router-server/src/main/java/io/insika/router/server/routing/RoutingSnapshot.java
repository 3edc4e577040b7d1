package io.insika.router.server.routing;

import java.util.List;
import java.util.Optional;

import io.insika.router.api.Backend;
import io.insika.router.api.Picker;

/**
 * The backends at one moment, with the pickers built for exactly them. Immutable: a request
 * reads the pool's current snapshot once and uses it throughout.
 *
 * @param backends the backends, sorted by id
 * @param strategy the configured strategy's name, which built {@code owners}
 * @param owners   places keyed requests (the configured strategy)
 * @param rotation    places requests without a key (round-robin)
 * @param fingerprint {@link RingFingerprint} of the strategy and these backends
 */
public record RoutingSnapshot(List<Backend> backends, String strategy, Picker owners, Picker rotation,
                              String fingerprint) {

    public RoutingSnapshot {
        backends = List.copyOf(backends);
    }

    /**
     * The backend that owns a key; empty only when there are no backends.
     *
     * @throws PluginFailedException when the strategy's picker threw: it may be a plugin's
     */
    public Optional<Backend> owner(String key) {
        try {
            return owners.pick(key);
        } catch (RuntimeException | StackOverflowError e) {
            throw new PluginFailedException("strategy", strategy, "picking a key's owner", e);
        }
    }

    /**
     * The backend with this id, if it is one of these: a sealed session names its owner by id,
     * and is placed nowhere else.
     */
    public Optional<Backend> byId(String id) {
        for (int i = 0; i < backends.size(); i++) {
            if (backends.get(i).id().equals(id)) {
                return Optional.of(backends.get(i));
            }
        }
        return Optional.empty();
    }

    /** The next backend in the rotation; empty only when there are no backends. */
    public Optional<Backend> next() {
        return rotation.pick("");
    }

    public boolean isEmpty() {
        return backends.isEmpty();
    }
}
