package io.insika.router.server.proxy;

import java.lang.System.Logger.Level;
import java.time.Duration;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentMap;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.LongSupplier;

import io.insika.router.server.config.DurationText;
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

    /** One route: when it may be said next, and how many requests since it was said. */
    private static final class Window {
        final AtomicLong due;
        final AtomicLong requests = new AtomicLong();

        Window(long now) {
            due = new AtomicLong(now);
        }
    }

    private final long interval;
    private final String every;
    private final LongSupplier clock;
    // by the route as it is logged, so a route kept across a reload keeps its window; as many
    // entries as the configuration has routes
    private final ConcurrentMap<String, Window> windows = new ConcurrentHashMap<>();

    BeyondCapLog() {
        this(INTERVAL, System::nanoTime);
    }

    /**
     * @param clock {@link System#nanoTime()}, or a test's
     */
    BeyondCapLog(Duration interval, LongSupplier clock) {
        this.interval = interval.toNanos();
        this.every = DurationText.format(interval);
        this.clock = clock;
    }

    /**
     * A request of this route went round-robin: no key within the first {@code bodyMaxBytes}
     * bytes, and its body goes on past them.
     */
    void roundRobined(Route route, int bodyMaxBytes) {
        long now = clock.getAsLong();
        Window window = windows.computeIfAbsent(route.toString(), name -> new Window(now));
        window.requests.incrementAndGet();
        long due = window.due.get();
        if (now - due < 0 || !window.due.compareAndSet(due, now + interval)) {
            return;
        }
        long count = window.requests.getAndSet(0);
        LOGGER.log(Level.INFO, "{0} request(s) on {1} went round-robin: no key within the first {2} bytes"
                + " (body-max-bytes) of a longer body; their sessions scatter. Raise body-max-bytes, or send the key"
                + " first (said at most once every {3}, with the count since)", String.valueOf(count), route,
                String.valueOf(bodyMaxBytes), every);
    }
}
