package io.insika.router.server.plugin;

import java.lang.System.Logger.Level;
import java.time.Duration;
import java.util.function.LongSupplier;

import io.insika.router.server.logging.IntervalCounts;
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

    // by plugin and what it did: as many keys as the configuration names plugins and routes
    private final IntervalCounts counts;

    public PluginFailureLog() {
        this(INTERVAL, System::nanoTime);
    }

    /**
     * @param clock {@link System#nanoTime()}, or a test's
     */
    PluginFailureLog(Duration interval, LongSupplier clock) {
        this.counts = new IntervalCounts(interval, clock);
    }

    /**
     * Counts a failure, and says it unless this plugin's failures doing the same were said less
     * than an interval ago.
     *
     * @param failure     what threw
     * @param consequence what the router did about it, such as {@code the request got 500}
     */
    public void failed(PluginFailedException failure, String consequence) {
        IntervalCounts.Due due = counts.count(failure.what());
        if (due == null) {
            return;
        }
        String times = due.first()
                ? "said again at most once every " + counts.every() + ", with a count"
                : due.count() + " time(s) since last said";
        LOGGER.log(Level.WARNING, failure.getMessage() + "; " + consequence + " (" + times + ")", failure.getCause());
    }
}
