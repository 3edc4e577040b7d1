package io.insika.router.strategies.ketama;

import static io.insika.router.strategies.ketama.KetamaPlacementTest.picker;
import static io.insika.router.strategies.placement.PlacementFixtures.backend;
import static io.insika.router.strategies.placement.PlacementFixtures.backends;
import static io.insika.router.strategies.placement.PlacementFixtures.busiestOverMean;
import static io.insika.router.strategies.placement.PlacementFixtures.keys;
import static io.insika.router.strategies.placement.PlacementFixtures.ownerIds;
import static io.insika.router.strategies.placement.PlacementFixtures.with;
import static io.insika.router.strategies.placement.PlacementFixtures.without;
import static io.insika.router.strategies.placement.PlacementFixtures.worstWeightError;
import static org.hamcrest.MatcherAssert.assertThat;
import static org.hamcrest.Matchers.closeTo;
import static org.hamcrest.Matchers.is;
import static org.hamcrest.Matchers.lessThanOrEqualTo;

import java.util.Arrays;
import java.util.List;

import io.insika.router.api.Backend;
import org.junit.jupiter.api.Test;

/**
 * Default-mode ketama: spread, weights and disruption over 100k keys. With 160 points per unit
 * of weight a backend's share has a standard deviation of about 8%, so a single set's busiest
 * backend lands anywhere from 1.05 to 1.3 of the mean depending on its ids; the spread bounds are
 * therefore asserted on the median of eleven sets, and a looser bound on the worst of them.
 */
class KetamaDistributionTest {

    private static final List<String> KEYS = keys(100_000);
    private static final int SETS = 11;

    @Test
    void tenEqualBackendsGetWithinFifteenPercentOfTheMeanOnATypicalSet() {
        double[] ratios = new double[SETS];
        for (int s = 0; s < SETS; s++) {
            ratios[s] = busiestOverMean(ownerIds(picker(backends("10.0." + s + ".%d:8080", 10)), KEYS), 10);
        }
        Arrays.sort(ratios);

        assertThat(ratios[SETS / 2], lessThanOrEqualTo(1.15));
        assertThat(ratios[SETS - 1], lessThanOrEqualTo(1.25));
    }

    @Test
    void weightsAreHonouredWithinTenPercentOnATypicalSet() {
        double[] errors = new double[SETS];
        for (int s = 0; s < SETS; s++) {
            errors[s] = worstWeightError(ownerIds(picker(weighted(s)), KEYS), weighted(s));
        }
        Arrays.sort(errors);

        assertThat(errors[SETS / 2], lessThanOrEqualTo(0.10));
        assertThat(errors[SETS - 1], lessThanOrEqualTo(0.20));
    }

    @Test
    void removingABackendMovesOnlyItsKeysWithEqualWeights() {
        assertRemovalMovesOnlyItsKeys(backends(10));
    }

    @Test
    void removingABackendMovesOnlyItsKeysWithUnequalWeights() {
        assertRemovalMovesOnlyItsKeys(weighted(0));
    }

    @Test
    void addingABackendMovesKeysOnlyToItAboutOneInNPlusOne() {
        List<Backend> before = backends(9);
        Backend added = backend("10.0.0.10:8080", 1);

        String[] owners = ownerIds(picker(before), KEYS);
        String[] after = ownerIds(picker(with(before, added)), KEYS);

        int moved = 0;
        for (int i = 0; i < owners.length; i++) {
            if (!owners[i].equals(after[i])) {
                assertThat(after[i], is(added.id()));
                moved++;
            }
        }
        assertThat(moved / (double) KEYS.size(), closeTo(1.0 / 10, 0.025));
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

    /** Five backends of weights 1 to 5, named after the set number. */
    private static List<Backend> weighted(int set) {
        return List.of(backend("10.1." + set + ".1:8080", 1), backend("10.1." + set + ".2:8080", 2),
                backend("10.1." + set + ".3:8080", 3), backend("10.1." + set + ".4:8080", 4),
                backend("10.1." + set + ".5:8080", 5));
    }
}
