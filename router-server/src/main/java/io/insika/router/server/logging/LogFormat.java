package io.insika.router.server.logging;

import java.util.Locale;
import java.util.Optional;
import java.util.logging.Handler;
import java.util.logging.LogManager;

/**
 * How the router writes its own log and its access log ({@code logging.format}): {@code text}
 * for people, {@code json} (one object per line) for collectors such as Fluent Bit, Vector or
 * Loki's promtail, which otherwise need a parser per format.
 */
public enum LogFormat {
    TEXT,
    JSON;

    /** The YAML and environment spelling. */
    public String label() {
        return name().toLowerCase(Locale.ROOT);
    }

    /** {@code text} or {@code json}, in any case. */
    public static Optional<LogFormat> parse(String text) {
        for (LogFormat format : values()) {
            if (format.label().equalsIgnoreCase(text)) {
                return Optional.of(format);
            }
        }
        return Optional.empty();
    }

    /**
     * Makes the router's own log use this format: in JSON, every handler of the root logger (the
     * console handler of conf/logging.properties) writes {@link JsonLogFormatter} lines. Lines
     * logged before the configuration is read stay text.
     */
    public void applyToRouterLog() {
        if (this == JSON) {
            for (Handler handler : LogManager.getLogManager().getLogger("").getHandlers()) {
                handler.setFormatter(new JsonLogFormatter());
            }
        }
    }
}
