package io.insika.router.strategies.ketama;

import java.util.List;

import io.insika.router.api.Backend;
import io.insika.router.api.Picker;
import io.insika.router.api.RouteStrategy;
import io.insika.router.strategies.placement.BackendSet;

/** Builds a libketama ring for each backend set; keeps no state between sets. */
final class KetamaRouteStrategy implements RouteStrategy {

    private final KetamaWeighting weighting;

    KetamaRouteStrategy(KetamaWeighting weighting) {
        this.weighting = weighting;
    }

    @Override
    public Picker picker(List<Backend> backends) {
        BackendSet set = BackendSet.of(backends);
        return new KetamaPicker(set, KetamaRing.build(set, weighting));
    }

    KetamaWeighting weighting() {
        return weighting;
    }
}
