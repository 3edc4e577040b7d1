package io.insika.router.strategies.ketama;

import static io.insika.router.strategies.placement.PlacementFixtures.backend;
import static io.insika.router.strategies.placement.PlacementFixtures.backends;
import static org.hamcrest.MatcherAssert.assertThat;
import static org.hamcrest.Matchers.is;
import static org.hamcrest.Matchers.lessThanOrEqualTo;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.List;
import java.util.Random;

import io.insika.router.api.Backend;
import io.insika.router.strategies.placement.BackendSet;
import org.junit.jupiter.api.Test;

class KetamaRingTest {

    @Test
    void lookupFindsTheFirstPointAtOrAfterTheHashAndWrapsPastTheLast() {
        for (List<Backend> backends : List.of(backends(1), backends(3), backends(40))) {
            KetamaRing ring = KetamaRing.build(BackendSet.of(backends), KetamaWeighting.NONE);
            Random random = new Random(3);
            for (int i = 0; i < ring.size(); i++) {
                long point = ring.point(i);
                for (long hash : new long[] {point - 1, point, point + 1, random.nextInt() & 0xffffffffL}) {
                    assertThat(ring.pointIndex((int) hash), is(firstAtOrAfter(ring, hash & 0xffffffffL)));
                }
            }
            for (long hash : new long[] {0, 0xffffffffL}) {
                assertThat(ring.pointIndex((int) hash), is(firstAtOrAfter(ring, hash)));
            }
        }
    }

    @Test
    void pointsAreSortedAndEqualPointsAreOrderedByBackendId() {
        KetamaRing ring = KetamaRing.build(BackendSet.of(backends(50)), KetamaWeighting.NONE);

        for (int i = 1; i < ring.size(); i++) {
            assertThat(ring.point(i - 1), lessThanOrEqualTo(ring.point(i)));
            if (ring.point(i - 1) == ring.point(i)) {
                assertThat(ring.owner(i - 1) < ring.owner(i), is(true));
            }
        }
    }

    @Test
    void everyUnitOfWeightAddsOneHundredSixtyPoints() {
        KetamaRing ring = KetamaRing.build(BackendSet.of(List.of(backend("a:1", 1), backend("b:1", 3))),
                KetamaWeighting.NONE);

        assertThat(ring.size(), is(4 * 160));
    }

    @Test
    void refusesARingBeyondSixteenMillionPointsNamingTheCount() {
        BackendSet huge = BackendSet.of(List.of(backend("a:1", 104_857), backend("b:1", 1)));

        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> KetamaRing.build(huge, KetamaWeighting.NONE));

        assertThat(e.getMessage(),
                is("ketama: [16777280 points] for 2 backends (expected: at most 16777216; lower the weights)"));
    }

    /** The reference: a plain scan. */
    private static int firstAtOrAfter(KetamaRing ring, long hash) {
        for (int i = 0; i < ring.size(); i++) {
            if (ring.point(i) >= hash) {
                return i;
            }
        }
        return 0;
    }
}
