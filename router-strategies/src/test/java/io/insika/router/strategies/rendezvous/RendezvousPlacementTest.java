package io.insika.router.strategies.rendezvous;

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
import io.insika.router.strategies.placement.BackendSet;
import org.junit.jupiter.api.Test;

class RendezvousPlacementTest {

    private static final List<String> KEYS = keys(20_000);

    @Test
    void freshInstancesAndAnyListOrderGiveTheSameOwnerForEveryKey() {
        List<Backend> backends = List.of(backend("10.0.0.1:8080", 1), backend("10.0.0.2:8080", 4),
                backend("10.0.0.3:8080", 2), backend("10.0.0.4:8080", 1), backend("[::1]:8080", 3));

        String[] first = ownerIds(picker(backends), KEYS);

        for (long seed = 1; seed <= 3; seed++) {
            assertThat(ownerIds(picker(shuffled(backends, seed)), KEYS), is(first));
        }
    }

    @Test
    void keyHashIsXxHash64OfTheUtf8BytesWithSeedZero() {
        assertThat(RendezvousHash.of("test"), is(5754696928334414137L));
        assertThat(RendezvousHash.of(""), is(-1205034819632174695L));
        assertThat(RendezvousHash.of("ünïcødé"), is(5573976422496753977L));
    }

    @Test
    void keysOf32BytesAndMoreTakeXxHash64sFourLanePathToo() {
        // Python's xxhash package; below 32 bytes xxHash64 never reaches its four accumulators
        assertThat(RendezvousHash.of("0123456789abcdef0123456789abcdef"), is(7217744722875508421L));
        assertThat(RendezvousHash.of("f47ac10b-58cc-4372-a567-0e02b2c3d479"), is(5821909102796944928L));
        assertThat(RendezvousHash.of("sess-" + "ü".repeat(40) + "-end"), is(-188817290679312329L));
        assertThat(RendezvousHash.of("x".repeat(100)), is(-7858536869340659564L));
    }

    @Test
    void goldenOwnersPinTheHashWithEqualWeights() {
        // Computed independently (Python, the xxhash package) from docs/strategies.md.
        assertGolden(picker(backends(5)), Map.of("alice", "10.0.0.3:8080", "bob", "10.0.0.2:8080",
                "carol", "10.0.0.5:8080", "session-42", "10.0.0.4:8080", "", "10.0.0.4:8080",
                "ünïcødé", "10.0.0.4:8080"));
    }

    @Test
    void goldenOwnersPinTheScoreWithUnequalWeights() {
        assertGolden(picker(weightsOneToFive()), Map.of("alice", "10.1.0.2:8080", "bob", "10.1.0.1:8080",
                "carol", "10.1.0.1:8080", "session-42", "10.1.0.4:8080", "", "10.1.0.3:8080",
                "ünïcødé", "10.1.0.5:8080"));
    }

    @Test
    void equalWeightsShortcutPicksTheOwnerTheFormulaPicks() {
        for (List<Backend> backends : List.of(backends(10), backends(10).stream().map(b -> b.withWeight(7)).toList())) {
            BackendSet set = BackendSet.of(backends);
            RendezvousPicker picker = new RendezvousPicker(set);
            for (String key : KEYS) {
                long hash = RendezvousHash.of(key);
                assertThat(key, picker.ownerIndex(hash), is(ownerByScore(set, hash)));
            }
        }
    }

    // The score formula of docs/strategies.md for every backend, a tie to the higher rank:
    // written out here, apart from the picker, for its shortcut to be held against
    private static int ownerByScore(BackendSet set, long keyHash) {
        int best = -1;
        double bestScore = 0;
        long bestMixed = 0;
        for (int i = 0; i < set.size(); i++) {
            long mixed = RendezvousHash.mix(keyHash, RendezvousHash.of(set.get(i).id()));
            double score = RendezvousHash.score(set.get(i).weight(), mixed);
            if (best < 0 || score > bestScore
                    || score == bestScore && RendezvousHash.rank(mixed) > RendezvousHash.rank(bestMixed)) {
                best = i;
                bestScore = score;
                bestMixed = mixed;
            }
        }
        return best;
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

        for (String key : List.of("", "alice", "\uD800 lone surrogate")) {
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
        Picker picker = picker(weightsOneToFive());

        for (String key : List.of("", "\uD800", "\uDFFF\uD800", "x".repeat(100_000), "\u0000")) {
            assertThat(picker.pick(key).isPresent(), is(true));
        }
    }

    static List<Backend> weightsOneToFive() {
        return List.of(backend("10.1.0.1:8080", 1), backend("10.1.0.2:8080", 2), backend("10.1.0.3:8080", 3),
                backend("10.1.0.4:8080", 4), backend("10.1.0.5:8080", 5));
    }

    static Picker picker(List<Backend> backends) {
        return new RendezvousRouteStrategyProvider().create(PluginOptions.empty()).picker(backends);
    }

    private static void assertGolden(Picker picker, Map<String, String> golden) {
        golden.forEach((key, owner) -> assertThat(key, picker.pick(key).orElseThrow().id(), is(owner)));
    }
}
