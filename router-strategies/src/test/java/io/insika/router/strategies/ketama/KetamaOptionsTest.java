package io.insika.router.strategies.ketama;

import static org.hamcrest.MatcherAssert.assertThat;
import static org.hamcrest.Matchers.is;
import static org.hamcrest.Matchers.not;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.Map;

import io.insika.router.api.PluginConfigException;
import io.insika.router.api.PluginOptions;
import org.junit.jupiter.api.Test;

class KetamaOptionsTest {

    private final KetamaRouteStrategyProvider provider = new KetamaRouteStrategyProvider();

    @Test
    void isNamedKetama() {
        assertThat(provider.name(), is("ketama"));
    }

    @Test
    void compatDefaultsToNone() {
        assertThat(strategy(PluginOptions.empty()).weighting(), is(KetamaWeighting.NONE));
    }

    @Test
    void compatLibketamaSelectsLibketamasWeightFormula() {
        assertThat(strategy(PluginOptions.of("compat", "libketama")).weighting(), is(KetamaWeighting.LIBKETAMA));
    }

    @Test
    void compatNoneWrittenOutResolvesAsLeavingItOut() {
        PluginOptions omitted = provider.resolve(PluginOptions.of("strategy.options", Map.of()));

        assertThat(provider.resolve(PluginOptions.of("strategy.options", Map.of("compat", "none"))), is(omitted));
        assertThat(omitted, is(PluginOptions.of("strategy.options", Map.of("compat", "none"))));
    }

    @Test
    void compatLibketamaResolvesToOtherOptions() {
        assertThat(provider.resolve(PluginOptions.of("compat", "libketama")),
                not(provider.resolve(PluginOptions.empty())));
    }

    @Test
    void rejectsAnUnknownCompatValueNamingTheValidOnes() {
        PluginConfigException e = assertThrows(PluginConfigException.class,
                () -> provider.create(PluginOptions.of("strategy", Map.of("compat", "memcached"))));

        assertThat(e.getMessage(), is("strategy.compat: [memcached] (expected: one of libketama, none)"));
    }

    @Test
    void rejectsAnUnknownOptionNamingTheKnownOnes() {
        PluginConfigException e = assertThrows(PluginConfigException.class,
                () -> provider.create(PluginOptions.of("strategy", Map.of("replicas", "200"))));

        assertThat(e.getMessage(), is("strategy.replicas: unknown option (known options: compat)"));
    }

    private KetamaRouteStrategy strategy(PluginOptions options) {
        return (KetamaRouteStrategy) provider.create(options);
    }
}
