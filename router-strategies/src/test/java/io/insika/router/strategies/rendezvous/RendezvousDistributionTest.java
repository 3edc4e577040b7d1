package io.insika.router.strategies.rendezvous;

import static io.insika.router.strategies.placement.PlacementFixtures.backend;
import static io.insika.router.strategies.placement.PlacementFixtures.backends;
import static io.insika.router.strategies.placement.PlacementFixtures.busiestOverMean;
import static io.insika.router.strategies.placement.PlacementFixtures.keys;
import static io.insika.router.strategies.placement.PlacementFixtures.ownerIds;
import static io.insika.router.strategies.placement.PlacementFixtures.with;
import static io.insika.router.strategies.placement.PlacementFixtures.without;
import static io.insika.router.strategies.placement.PlacementFixtures.worstWeightError;
import static io.insika.router.strategies.rendezvous.RendezvousPlacementTest.picker;
import static io.insika.router.strategies.rendezvous.RendezvousPlacementTest.weightsOneToFive;
import static org.hamcrest.MatcherAssert.assertThat;
import static org.hamcrest.Matchers.closeTo;
import static org.hamcrest.Matchers.is;
import static org.hamcrest.Matchers.lessThanOrEqualTo;

import java.util.List;

import io.insika.router.api.Backend;
import org.junit.jupiter.api.Test;

/** Spread, weights and disruption over 100k keys. */
class RendezvousDistributionTest {

    private static final List<String> KEYS = keys(100_000);

    @Test
    void tenEqualBackendsGetWithinFivePercentOfTheMean() {
        assertThat(busiestOverMean(ownerIds(picker(backends(10)), KEYS), 10), lessThanOrEqualTo(1.05));
    }

    @Test
    void weightsAreHonouredWithinTenPercent() {
        assertThat(worstWeightError(ownerIds(picker(weightsOneToFive()), KEYS), weightsOneToFive()),
                lessThanOrEqualTo(0.10));
    }

    @Test
    void removingABackendMovesOnlyItsKeysWithEqualWeights() {
        assertRemovalMovesOnlyItsKeys(backends(8));
    }

    @Test
    void removingABackendMovesOnlyItsKeysWithUnequalWeights() {
        assertRemovalMovesOnlyItsKeys(weightsOneToFive());
    }

    @Test
    void addingABackendMovesKeysOnlyToItAboutOneInNPlusOne() {
        assertAddingMovesKeysOnlyToIt(backends(9), backend("10.0.0.10:8080", 1), 1.0 / 10);
    }

    @Test
    void addingAWeightedBackendTakesItsShareOnlyForItself() {
        // Total weight 15 + 5: the newcomer is due a quarter of the keys.
        assertAddingMovesKeysOnlyToIt(weightsOneToFive(), backend("10.1.0.6:8080", 5), 5.0 / 20);
    }

    private static void assertAddingMovesKeysOnlyToIt(List<Backend> before, Backend added, double expectedShare) {
        String[] owners = ownerIds(picker(before), KEYS);
        String[] after = ownerIds(picker(with(before, added)), KEYS);

        int moved = 0;
        for (int i = 0; i < owners.length; i++) {
            if (!owners[i].equals(after[i])) {
                assertThat(after[i], is(added.id()));
                moved++;
            }
        }
        assertThat(moved / (double) KEYS.size(), closeTo(expectedShare, expectedShare * 0.1));
    }

    private static void assertRemovalMovesOnlyItsKeys(List<Backend> backends) {
        String[] owners = ownerIds(picker(backends), KEYS);
        for (Backend removed : backends) {
            String[] after = ownerIds(picker(without(backends, removed)), KEYS);
            for (int i = 0; i < owners.length; i++) {
                if (!owners[i].equals(removed.id())) {
                    assertThat(KEYS.get(i), after[i], is(owners[i]));
                }
            }
        }
    }
}
