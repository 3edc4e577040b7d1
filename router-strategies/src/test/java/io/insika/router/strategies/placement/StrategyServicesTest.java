package io.insika.router.strategies.placement;

import static org.hamcrest.MatcherAssert.assertThat;
import static org.hamcrest.Matchers.hasItems;

import java.util.ServiceLoader;

import io.insika.router.api.RouteStrategyProvider;
import org.junit.jupiter.api.Test;

class StrategyServicesTest {

    @Test
    void serviceLoaderFindsTheBuiltInStrategiesByName() {
        var names = ServiceLoader.load(RouteStrategyProvider.class).stream()
                .map(provider -> provider.get().name())
                .toList();

        assertThat(names, hasItems("ketama", "rendezvous", "round-robin"));
    }
}
