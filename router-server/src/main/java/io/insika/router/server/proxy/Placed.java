package io.insika.router.server.proxy;

import java.util.Optional;

import io.insika.router.api.Backend;
import io.insika.router.server.metrics.Placement;
import io.insika.router.server.routing.Route;

/**
 * Where a request goes and why: what the metrics count and the access log says.
 *
 * @param backend its backend, or {@code null} when the pool is empty
 * @param route   the route it matched, or {@code null} for none
 * @param how     by its key, or round-robin and why
 * @param key     its session key, or {@code null}; never logged in clear
 */
record Placed(Backend backend, Route route, Placement how, String key) {

    Optional<Backend> owner() {
        return Optional.ofNullable(backend);
    }
}
