package io.insika.router.strategies.roundrobin;

import static io.insika.router.strategies.placement.PlacementFixtures.backend;
import static io.insika.router.strategies.placement.PlacementFixtures.backends;
import static io.insika.router.strategies.placement.PlacementFixtures.counts;
import static io.insika.router.strategies.placement.PlacementFixtures.shuffled;
import static org.hamcrest.MatcherAssert.assertThat;
import static org.hamcrest.Matchers.contains;
import static org.hamcrest.Matchers.everyItem;
import static org.hamcrest.Matchers.is;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

import io.insika.router.api.Backend;
import io.insika.router.api.Picker;
import io.insika.router.api.PluginOptions;
import io.insika.router.api.RouteStrategy;
import org.junit.jupiter.api.Test;

class RoundRobinRouteStrategyTest {

    private final RouteStrategy strategy = new RoundRobinRouteStrategyProvider().create(PluginOptions.empty());

    @Test
    void visitsTheBackendsInIdOrderWhateverTheKeyOrListOrder() {
        Picker picker = strategy.picker(shuffled(backends(3), 1));

        assertThat(pickIds(picker, 6, "same-key"), contains("10.0.0.1:8080", "10.0.0.2:8080", "10.0.0.3:8080",
                "10.0.0.1:8080", "10.0.0.2:8080", "10.0.0.3:8080"));
    }

    @Test
    void spreadsRequestsExactlyEvenly() {
        Picker picker = strategy.picker(backends(7));

        List<String> ids = pickIds(picker, 7 * 1000, "k");

        assertThat(counts(ids.toArray(String[]::new)).values(), everyItem(is(1000)));
    }

    @Test
    void theRotationContinuesAcrossAPickerRebuild() {
        strategy.picker(backends(4)).pick("");

        Picker rebuilt = strategy.picker(backends(4));

        assertThat(rebuilt.pick("").orElseThrow().id(), is("10.0.0.2:8080"));
    }

    @Test
    void eachStrategyHasItsOwnRotation() {
        strategy.picker(backends(4)).pick("");

        RouteStrategy other = new RoundRobinRouteStrategyProvider().create(PluginOptions.empty());

        assertThat(other.picker(backends(4)).pick("").orElseThrow().id(), is("10.0.0.1:8080"));
    }

    @Test
    void keepsRotatingEvenlyPastTheCounterOverflow() {
        Picker picker = new RoundRobinRouteStrategy(Long.MAX_VALUE - 5).picker(backends(3));

        List<String> ids = pickIds(picker, 3 * 4, "");

        assertThat(counts(ids.toArray(String[]::new)).values(), everyItem(is(4)));
    }

    @Test
    void anEmptySetPicksNothing() {
        Picker picker = strategy.picker(List.of());

        assertThat(picker.pick("a"), is(Optional.empty()));
        assertThat(picker.backends(), is(List.of()));
    }

    @Test
    void aSingleBackendGetsEveryRequest() {
        Backend only = backend("10.0.0.9:8080", 2);
        Picker picker = strategy.picker(List.of(only));

        assertThat(pickIds(picker, 5, "x"), everyItem(is(only.id())));
    }

    private static List<String> pickIds(Picker picker, int count, String key) {
        List<String> ids = new ArrayList<>();
        for (int i = 0; i < count; i++) {
            ids.add(picker.pick(key).orElseThrow().id());
        }
        return ids;
    }
}
