package io.insika.router.server.proxy;

import java.lang.System.Logger.Level;
import java.time.Duration;
import java.util.function.LongSupplier;

import io.insika.router.server.logging.IntervalCounts;
import io.insika.router.server.routing.Route;

/**
 * Says at INFO that a keyed route's requests went round-robin because their key was not within
 * {@code body-max-bytes} of a longer body: their sessions scatter while every request succeeds,
 * so the operator must hear of it without debug logging or the access log. Said once per route
 * and {@link #INTERVAL}, with the count since the route's last line; the first at once.
 */
final class BeyondCapLog {

    /** The least time between two lines of one route. */
    static final Duration INTERVAL = Duration.ofMinutes(1);

    private static final System.Logger LOGGER = System.getLogger(BeyondCapLog.class.getName());

    // by the route as it is logged, so a route kept across a reload keeps its window
    private final IntervalCounts counts;

    BeyondCapLog() {
        this(INTERVAL, System::nanoTime);
    }

    /**
     * @param clock {@link System#nanoTime()}, or a test's
     */
    BeyondCapLog(Duration interval, LongSupplier clock) {
        this.counts = new IntervalCounts(interval, clock);
    }

    /**
     * A request of this route went round-robin: no key within the first {@code bodyMaxBytes}
     * bytes, and its body goes on past them.
     */
    void roundRobined(Route route, int bodyMaxBytes) {
        IntervalCounts.Due due = counts.count(route.toString());
        if (due == null) {
            return;
        }
        LOGGER.log(Level.INFO, "{0} request(s) on {1} went round-robin: no key within the first {2} bytes"
                + " (body-max-bytes) of a longer body; their sessions scatter. Raise body-max-bytes, or send the key"
                + " first (said at most once every {3}, with the count since)", String.valueOf(due.count()), route,
                String.valueOf(bodyMaxBytes), counts.every());
    }
}
