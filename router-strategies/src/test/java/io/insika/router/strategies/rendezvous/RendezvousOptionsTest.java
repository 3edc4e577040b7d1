package io.insika.router.strategies.rendezvous;

import static org.hamcrest.MatcherAssert.assertThat;
import static org.hamcrest.Matchers.is;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.Map;

import io.insika.router.api.PluginConfigException;
import io.insika.router.api.PluginOptions;
import org.junit.jupiter.api.Test;

class RendezvousOptionsTest {

    private final RendezvousRouteStrategyProvider provider = new RendezvousRouteStrategyProvider();

    @Test
    void isNamedRendezvous() {
        assertThat(provider.name(), is("rendezvous"));
    }

    @Test
    void rejectsAnyOptionSinceItHasNone() {
        PluginConfigException e = assertThrows(PluginConfigException.class,
                () -> provider.create(PluginOptions.of("strategy", Map.of("seed", "42"))));

        assertThat(e.getMessage(), is("strategy.seed: unknown option (no options)"));
    }
}
