package io.insika.router.strategies.placement;

import static io.insika.router.strategies.placement.PlacementFixtures.backends;
import static io.insika.router.strategies.placement.PlacementFixtures.keys;
import static io.insika.router.strategies.placement.PlacementFixtures.ownerIds;
import static org.hamcrest.MatcherAssert.assertThat;
import static org.hamcrest.Matchers.is;

import java.util.List;
import java.util.Map;
import java.util.ServiceLoader;
import java.util.TreeMap;
import java.util.stream.Stream;

import io.insika.router.api.Backend;
import io.insika.router.api.PluginOptions;
import io.insika.router.api.RouteStrategyProvider;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Every built-in strategy says which options it places keys with, defaults written out, so the
 * router can tell a default written out from one left out (the same placement) and from a change.
 */
class ResolvedOptionsTest {

    private static final String PATH = "strategy.options";

    static Stream<RouteStrategyProvider> builtIn() {
        return ServiceLoader.load(RouteStrategyProvider.class).stream().map(ServiceLoader.Provider::get);
    }

    @ParameterizedTest
    @MethodSource("builtIn")
    void writingEveryDefaultOutResolvesAsLeavingThemOut(RouteStrategyProvider provider) {
        PluginOptions omitted = provider.resolve(PluginOptions.of(PATH, Map.of()));
        PluginOptions written = PluginOptions.of(PATH, values(omitted));

        assertThat(provider.resolve(written), is(omitted));
    }

    @ParameterizedTest
    @MethodSource("builtIn")
    void theResolvedOptionsMakeAStrategyThatPlacesEveryKeyAlike(RouteStrategyProvider provider) {
        List<Backend> backends = backends(7);
        List<String> keys = keys(2_000);
        PluginOptions given = PluginOptions.of(PATH, Map.of());

        String[] asGiven = ownerIds(provider.create(given).picker(backends), keys);
        String[] asResolved = ownerIds(provider.create(provider.resolve(given)).picker(backends), keys);

        assertThat(asResolved, is(asGiven));
    }

    @ParameterizedTest
    @MethodSource("builtIn")
    void theResolvedOptionsKeepWhereTheyWereWritten(RouteStrategyProvider provider) {
        assertThat(provider.resolve(PluginOptions.of(PATH, Map.of())).path(), is(PATH));
    }

    private static Map<String, String> values(PluginOptions options) {
        Map<String, String> values = new TreeMap<>();
        options.names().forEach(name -> values.put(name, options.get(name).orElseThrow()));
        return values;
    }
}
