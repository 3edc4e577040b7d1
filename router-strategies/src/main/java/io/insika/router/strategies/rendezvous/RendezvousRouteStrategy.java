package io.insika.router.strategies.rendezvous;

import java.util.List;

import io.insika.router.api.Backend;
import io.insika.router.api.Picker;
import io.insika.router.api.RouteStrategy;
import io.insika.router.strategies.placement.BackendSet;

/** Weighted highest-random-weight placement; keeps no state between backend sets. */
final class RendezvousRouteStrategy implements RouteStrategy {

    @Override
    public Picker picker(List<Backend> backends) {
        return new RendezvousPicker(BackendSet.of(backends));
    }
}
