package io.insika.router.server.config;

import java.util.List;

import io.insika.router.api.Backend;

/**
 * A fixed list of backends, given by {@code backends.static} or {@code INSIKA_ROUTER_BACKENDS}.
 *
 * @param backends the backends in the order written, no two with the same id; possibly empty
 *                 (then every proxied request gets the 503 envelope)
 */
public record StaticBackends(List<Backend> backends) implements BackendSource {

    public StaticBackends {
        backends = List.copyOf(backends);
    }
}
