package io.insika.router.strategies.roundrobin;

import java.util.List;
import java.util.concurrent.atomic.AtomicLong;

import io.insika.router.api.Backend;
import io.insika.router.api.Picker;
import io.insika.router.api.RouteStrategy;
import io.insika.router.strategies.placement.BackendSet;

/**
 * Hands out backends in turn. The cursor lives here, not in a picker, so a backend-set change
 * continues the rotation instead of sending the next request to the first backend again.
 */
final class RoundRobinRouteStrategy implements RouteStrategy {

    private final AtomicLong cursor;

    RoundRobinRouteStrategy() {
        this(0);
    }

    /** Starts the rotation at a given count, so tests can reach the wrap-around. */
    RoundRobinRouteStrategy(long start) {
        this.cursor = new AtomicLong(start);
    }

    @Override
    public Picker picker(List<Backend> backends) {
        return new RoundRobinPicker(BackendSet.of(backends), cursor);
    }
}
