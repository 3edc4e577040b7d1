package io.insika.router.server.plugin;

import java.lang.System.Logger.Level;
import java.time.Duration;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentMap;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.LongSupplier;

import io.insika.router.server.config.DurationText;
import io.insika.router.server.routing.PluginFailedException;

/**
 * Says that a plugin threw, once per plugin and interval rather than once per request: a
 * strategy that throws on every key would otherwise write a stack trace per request. The first
 * failure is said at once, with its stack trace; the ones after it are counted, and said with
 * the next record, at most one per {@link #INTERVAL}.
 */
public final class PluginFailureLog {

    /** The least time between two records of one plugin doing one thing. */
    public static final Duration INTERVAL = Duration.ofMinutes(1);

    private static final System.Logger LOGGER = System.getLogger(PluginFailureLog.class.getName());

    /** One plugin doing one thing: when it may be said next, and how often it failed since. */
    private static final class Window {
        final AtomicLong due;
        final AtomicLong failures = new AtomicLong();
        volatile boolean said;

        Window(long now) {
            due = new AtomicLong(now);
        }
    }

    private final long interval;
    private final String every;
    private final LongSupplier clock;
    // as many entries as the configuration names plugins and routes: it never grows with traffic
    private final ConcurrentMap<String, Window> windows = new ConcurrentHashMap<>();

    public PluginFailureLog() {
        this(INTERVAL, System::nanoTime);
    }

    /**
     * @param clock {@link System#nanoTime()}, or a test's
     */
    PluginFailureLog(Duration interval, LongSupplier clock) {
        this.interval = interval.toNanos();
        this.every = DurationText.format(interval);
        this.clock = clock;
    }

    /**
     * Counts a failure, and says it unless this plugin's failures doing the same were said less
     * than an interval ago.
     *
     * @param failure     what threw
     * @param consequence what the router did about it, such as {@code the request got 500}
     */
    public void failed(PluginFailedException failure, String consequence) {
        long now = clock.getAsLong();
        Window window = windows.computeIfAbsent(failure.what(), what -> new Window(now));
        window.failures.incrementAndGet();
        long due = window.due.get();
        if (now - due < 0 || !window.due.compareAndSet(due, now + interval)) {
            return;
        }
        long count = window.failures.getAndSet(0);
        String times = window.said
                ? count + " time(s) since last said"
                : "said again at most once every " + every + ", with a count";
        window.said = true;
        LOGGER.log(Level.WARNING, failure.getMessage() + "; " + consequence + " (" + times + ")", failure.getCause());
    }
}
