package io.insika.router.server.logging;

import java.util.Locale;
import java.util.Optional;
import java.util.logging.Level;
import java.util.logging.Logger;

/**
 * {@code logging.level}: how much of its own log the router writes, by the names operators know
 * from other servers rather than java.util.logging's ({@code FINE}, {@code WARNING},
 * {@code SEVERE}). The same names label each record, in both formats.
 */
public enum LogLevel {
    /** Per-request decisions (the key's digest, the backend chosen): java.util.logging's FINE. */
    DEBUG(Level.FINE),
    /** Lifecycle: listening, routes, plugins, backend set changes, reloads. */
    INFO(Level.INFO),
    /** Degraded states: a backend down, a DNS answer missing, a reload refused. */
    WARN(Level.WARNING),
    /** Failures: a plugin that threw, a reload that failed. */
    ERROR(Level.SEVERE);

    /**
     * The parent of every router logger. Held here for as long as the class is loaded: the
     * LogManager keeps loggers only weakly, and a collected logger forgets the level set on it.
     */
    private static final Logger ROUTER = Logger.getLogger("io.insika.router");

    private final Level level;

    LogLevel(Level level) {
        this.level = level;
    }

    /** The YAML and environment spelling, and the {@code level} of a JSON log line. */
    public String label() {
        return name().toLowerCase(Locale.ROOT);
    }

    /** {@code debug}, {@code info}, {@code warn} or {@code error}, in any case. */
    public static Optional<LogLevel> parse(String text) {
        for (LogLevel candidate : values()) {
            if (candidate.label().equalsIgnoreCase(text)) {
                return Optional.of(candidate);
            }
        }
        return Optional.empty();
    }

    /**
     * The name a record of this java.util.logging level is written with: FINER and FINEST are
     * debug, CONFIG (between FINE and INFO) is debug too, since {@code info} does not show it.
     */
    public static LogLevel of(Level level) {
        int value = level.intValue();
        if (value >= Level.SEVERE.intValue()) {
            return ERROR;
        }
        if (value >= Level.WARNING.intValue()) {
            return WARN;
        }
        return value >= Level.INFO.intValue() ? INFO : DEBUG;
    }

    /**
     * Makes the router's loggers ({@code io.insika.router.*}) write from this level up, from now
     * on; Helidon's and other libraries' stay as conf/logging.properties sets them, and so does a
     * router package given a level of its own there.
     */
    public void applyToRouterLog() {
        ROUTER.setLevel(level);
    }
}
