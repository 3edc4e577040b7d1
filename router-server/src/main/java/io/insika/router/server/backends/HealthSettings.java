package io.insika.router.server.backends;

import java.time.Duration;
import java.util.Objects;
import java.util.Optional;

/**
 * When the router believes a backend is down. Down never moves a session: it only keeps
 * requests without a key away, and answers its own sessions with the retry envelope at once.
 *
 * @param downTime how long a backend whose connect failed counts as down; then requests try it
 *                 again ({@code health.down-time})
 * @param path     the path an active check asks with {@code GET}; empty for no active checks
 *                 ({@code health.path})
 * @param interval between two active checks of one backend ({@code health.interval})
 * @param timeout  the longest one active check may take, connect included; at most
 *                 {@code interval} ({@code health.timeout})
 */
public record HealthSettings(Duration downTime, Optional<String> path, Duration interval, Duration timeout) {

    public static final Duration DEFAULT_DOWN_TIME = Duration.ofSeconds(2);
    public static final Duration DEFAULT_INTERVAL = Duration.ofSeconds(5);
    public static final Duration DEFAULT_TIMEOUT = Duration.ofSeconds(2);
    /** Passive only: a connect failure marks a backend down for two seconds. */
    public static final HealthSettings DEFAULTS = new HealthSettings(DEFAULT_DOWN_TIME, Optional.empty(),
            DEFAULT_INTERVAL, DEFAULT_TIMEOUT);

    public HealthSettings {
        Objects.requireNonNull(downTime, "downTime");
        Objects.requireNonNull(path, "path");
        Objects.requireNonNull(interval, "interval");
        Objects.requireNonNull(timeout, "timeout");
        if (downTime.isNegative() || downTime.isZero()) {
            throw new IllegalArgumentException("down-time: [" + downTime + "] (expected: > 0)");
        }
        if (interval.isNegative() || interval.isZero()) {
            throw new IllegalArgumentException("interval: [" + interval + "] (expected: > 0)");
        }
        if (timeout.isNegative() || timeout.isZero() || timeout.compareTo(interval) > 0) {
            throw new IllegalArgumentException("timeout: [" + timeout + "] (expected: > 0 and <= interval)");
        }
        path.ifPresent(p -> {
            if (!p.startsWith("/")) {
                throw new IllegalArgumentException("path: [" + p + "] (expected: starting with /)");
            }
        });
    }
}
