package io.insika.router.server.proxy;

import org.junit.jupiter.api.Test;

import static org.hamcrest.MatcherAssert.assertThat;
import static org.hamcrest.Matchers.is;
import static org.hamcrest.Matchers.lessThan;

/** The connection and tunnel limits: taken and given back, and sized from the heap by default. */
class OpenLimitTest {

    private static final long MIB = 1024 * 1024;

    @Test
    void aSlotPastTheLimitIsRefusedAndCountedUntilOneIsGivenBack() {
        OpenLimit limit = new OpenLimit(2);
        assertThat(limit.tryTake(), is(true));
        assertThat(limit.tryTake(), is(true));
        assertThat(limit.full(), is(true));

        assertThat(limit.tryTake(), is(false));
        assertThat(limit.refused(), is(1L));
        assertThat(limit.open(), is(2));
        limit.give();
        assertThat(limit.tryTake(), is(true));
    }

    @Test
    void connectionsTakeHalfTheHeapAndTunnelsAQuarter() {
        long shipped = 107 * MIB + 256 * 1024; // Runtime.maxMemory() under -Xmx112m -Xmn48m, Serial GC
        assertThat(OpenLimit.connectionsForHeap(shipped), is(2745));
        assertThat(OpenLimit.tunnelsForHeap(shipped), is(686));
        assertThat("they scale with the heap", OpenLimit.connectionsForHeap(4 * shipped), is(10982));
    }

    @Test
    void atBothLimitsAQuarterOfTheHeapIsLeftAtTheMeasuredCosts() {
        long heap = 112 * MIB;
        int tunnels = OpenLimit.tunnelsForHeap(heap);
        int idle = OpenLimit.connectionsForHeap(heap) - tunnels; // a tunnel's client connection counts too
        double held = tunnels * 38 * 1024.0 + idle * 18.5 * 1024;
        assertThat(held / heap, lessThan(0.75));
    }

    @Test
    void aConfiguredLimitIsTakenAsItIsAndASmallHeapStillGetsAFew() {
        assertThat(OpenLimit.connectionLimit(10), is(10));
        assertThat(OpenLimit.connectionsForHeap(MIB), is(64));
        assertThat(OpenLimit.tunnelsForHeap(MIB), is(16));
    }
}
