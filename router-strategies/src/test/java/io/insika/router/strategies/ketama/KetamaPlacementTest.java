package io.insika.router.strategies.ketama;

import static io.insika.router.strategies.placement.PlacementFixtures.backend;
import static io.insika.router.strategies.placement.PlacementFixtures.backends;
import static io.insika.router.strategies.placement.PlacementFixtures.keys;
import static io.insika.router.strategies.placement.PlacementFixtures.ownerIds;
import static io.insika.router.strategies.placement.PlacementFixtures.shuffled;
import static org.hamcrest.MatcherAssert.assertThat;
import static org.hamcrest.Matchers.is;

import java.util.List;
import java.util.Map;
import java.util.Optional;

import io.insika.router.api.Backend;
import io.insika.router.api.Picker;
import io.insika.router.api.PluginOptions;
import org.junit.jupiter.api.Test;

/** Default-mode ketama: what every replica must agree on. */
class KetamaPlacementTest {

    private static final List<String> KEYS = keys(20_000);

    @Test
    void freshInstancesAndAnyListOrderGiveTheSameOwnerForEveryKey() {
        List<Backend> backends = backends(7);

        String[] first = ownerIds(picker(backends), KEYS);

        for (long seed = 1; seed <= 3; seed++) {
            assertThat(ownerIds(picker(shuffled(backends, seed)), KEYS), is(first));
        }
    }

    @Test
    void goldenOwnersPinTheHashAndTheRingLayout() {
        // Computed independently (Python hashlib) from the layout in docs/strategies.md.
        Picker picker = picker(backends(5));
        Map<String, String> golden = Map.of(
                "alice", "10.0.0.3:8080",
                "bob", "10.0.0.4:8080",
                "carol", "10.0.0.3:8080",
                "session-42", "10.0.0.2:8080",
                "", "10.0.0.4:8080",
                "ünïcødé", "10.0.0.5:8080");

        golden.forEach((key, owner) -> assertThat(key, picker.pick(key).orElseThrow().id(), is(owner)));
        assertThat(Integer.toUnsignedLong(KetamaRing.keyHash("ünïcødé")), is(3370400039L));
        assertThat(Integer.toUnsignedLong(KetamaRing.keyHash("session-42")), is(1432575752L));
    }

    @Test
    void anEmptySetPicksNothing() {
        Picker picker = picker(List.of());

        assertThat(picker.pick("alice"), is(Optional.empty()));
        assertThat(picker.backends(), is(List.of()));
    }

    @Test
    void aSingleBackendOwnsEveryKey() {
        Backend only = backend("10.0.0.9:8080", 3);
        Picker picker = picker(List.of(only));

        for (String key : List.of("", "alice", "session-7", "\uD800 lone surrogate")) {
            assertThat(picker.pick(key), is(Optional.of(only)));
        }
    }

    @Test
    void backendsAreListedById() {
        List<Backend> backends = backends(12);

        assertThat(picker(shuffled(backends, 5)).backends(),
                is(backends.stream().sorted((a, b) -> a.id().compareTo(b.id())).toList()));
    }

    @Test
    void badKeysStillFindAnOwner() {
        Picker picker = picker(backends(3));

        for (String key : List.of("", "\uD800", "\uDFFF\uD800", "x".repeat(100_000), "\u0000")) {
            assertThat(picker.pick(key).isPresent(), is(true));
        }
    }

    static Picker picker(List<Backend> backends) {
        return new KetamaRouteStrategyProvider().create(PluginOptions.empty()).picker(backends);
    }
}
