package io.insika.router.server.logging;

import java.time.Duration;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentMap;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.LongSupplier;

import io.insika.router.server.config.DurationText;

/**
 * Counts events by key and says when one may be logged: the first of a key at once, then at most
 * once per interval, with the count since the last line. What keeps a per-request event (a plugin
 * that throws on every key, a body too long for its key) from writing a line per request. Keys
 * are what the configuration names (plugins, routes): the map never grows with traffic.
 */
public final class IntervalCounts {

    /** A line is due: how many events it stands for, and whether it is the key's first. */
    public record Due(long count, boolean first) {
    }

    /** One key: when it may be said next, how many events since it was said, whether it ever was. */
    private static final class Window {
        final AtomicLong due;
        final AtomicLong events = new AtomicLong();
        volatile boolean said;

        Window(long now) {
            due = new AtomicLong(now);
        }
    }

    private final long interval;
    private final String every;
    private final LongSupplier clock;
    private final ConcurrentMap<String, Window> windows = new ConcurrentHashMap<>();

    /**
     * @param clock {@link System#nanoTime()}, or a test's
     */
    public IntervalCounts(Duration interval, LongSupplier clock) {
        this.interval = interval.toNanos();
        this.every = DurationText.format(interval);
        this.clock = clock;
    }

    /** The interval as a line says it, such as {@code 1m}. */
    public String every() {
        return every;
    }

    /**
     * Counts one event of this key.
     *
     * @return the line that is due now, or {@code null} when one was said less than an interval ago
     */
    public Due count(String key) {
        long now = clock.getAsLong();
        Window window = windows.computeIfAbsent(key, name -> new Window(now));
        window.events.incrementAndGet();
        long due = window.due.get();
        if (now - due < 0 || !window.due.compareAndSet(due, now + interval)) {
            return null;
        }
        boolean first = !window.said;
        window.said = true;
        return new Due(window.events.getAndSet(0), first);
    }
}
