package io.insika.router.server.proxy;

import java.util.Optional;

import io.insika.router.api.Backend;
import io.insika.router.server.backends.BackendState;
import io.insika.router.server.metrics.Placement;
import io.insika.router.server.routing.Route;

/**
 * Where a request goes and why: what the metrics count and the access log says.
 *
 * @param backend its backend (for a refused session, the owner that refused it), or
 *                {@code null} when the pool is empty or every backend refused
 * @param route   the route it matched, or {@code null} for none
 * @param how     by its key, or round-robin and why
 * @param key     its session key, or {@code null}; never logged in clear
 * @param slot    the backend whose request or tunnel slot this request holds, until it ends;
 *                {@code null} when it holds none
 * @param refusal the answer instead of forwarding, when the backend (or every backend) refused:
 *                down or full; {@code null} when it was admitted
 * @param carriersDisagree whether the route's carriers of the key (a header and a path segment)
 *                held different values; the first decided
 * @param carrier the request's learned carriers (keys backends mint), read whatever its route;
 *                {@link SessionCarrier#NONE} when no route learns one
 */
record Placed(Backend backend, Route route, Placement how, String key, BackendState slot, ProxyFailure refusal,
              boolean carriersDisagree, SessionCarrier carrier) {

    Placed(Backend backend, Route route, Placement how, String key, BackendState slot, ProxyFailure refusal) {
        this(backend, route, how, key, slot, refusal, false, SessionCarrier.NONE);
    }

    Placed withCarriersDisagreeing(boolean disagree) {
        return disagree ? new Placed(backend, route, how, key, slot, refusal, true, carrier) : this;
    }

    Placed withCarrier(SessionCarrier learned) {
        return new Placed(backend, route, how, key, slot, refusal, carriersDisagree, learned);
    }

    /** The status of this placement's refusal: a gone session's is its route's to say. */
    int refusalStatus() {
        return refusal == ProxyFailure.SESSION_GONE ? carrier.unknownOwnerStatus() : refusal.status().code();
    }

    Optional<Backend> owner() {
        return Optional.ofNullable(backend);
    }
}
