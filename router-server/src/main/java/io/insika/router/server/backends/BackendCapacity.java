package io.insika.router.server.backends;

import java.util.Map;
import java.util.Objects;

/**
 * The limits of every backend: those written for one static backend, else the defaults (which
 * is all a DNS-discovered backend ever gets).
 *
 * @param defaults    {@code backends.max-requests} and {@code backends.max-tunnels}
 * @param perBackend  by backend id ({@code host:port}), the limits of static entries that set
 *                    their own; an entry setting only one keeps the default for the other
 */
public record BackendCapacity(BackendLimits defaults, Map<String, BackendLimits> perBackend) {

    /** No limits anywhere. */
    public static final BackendCapacity UNLIMITED = new BackendCapacity(BackendLimits.NONE, Map.of());

    public BackendCapacity {
        Objects.requireNonNull(defaults, "defaults");
        perBackend = Map.copyOf(perBackend);
    }

    /** The limits of the backend with this id. */
    public BackendLimits of(String id) {
        return perBackend.getOrDefault(id, defaults);
    }
}
