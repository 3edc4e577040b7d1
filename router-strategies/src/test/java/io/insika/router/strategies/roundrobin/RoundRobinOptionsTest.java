package io.insika.router.strategies.roundrobin;

import static org.hamcrest.MatcherAssert.assertThat;
import static org.hamcrest.Matchers.is;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.Map;

import io.insika.router.api.PluginConfigException;
import io.insika.router.api.PluginOptions;
import org.junit.jupiter.api.Test;

class RoundRobinOptionsTest {

    private final RoundRobinRouteStrategyProvider provider = new RoundRobinRouteStrategyProvider();

    @Test
    void isNamedRoundRobin() {
        assertThat(provider.name(), is("round-robin"));
    }

    @Test
    void rejectsAnyOptionSinceItHasNone() {
        PluginConfigException e = assertThrows(PluginConfigException.class,
                () -> provider.create(PluginOptions.of("strategy", Map.of("start", "3"))));

        assertThat(e.getMessage(), is("strategy.start: unknown option (no options)"));
    }
}
