package io.insika.router.server.logging;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.util.logging.Formatter;
import java.util.logging.LogRecord;

/**
 * {@code logging.format: text}, as conf/logging.properties names it: one line per record for
 * people, {@code 2026-12-03T17:33:04.123Z INFO  io.insika.router.server.Router: message}, the
 * time in RFC 3339 with its zone and the level by {@link LogLevel}'s names; a stack trace
 * follows on the lines after it.
 */
public final class TextLogFormatter extends Formatter {

    @Override
    public String format(LogRecord record) {
        StringBuilder line = new StringBuilder(160)
                .append(LogTime.format(record.getInstant())).append(' ');
        String level = LogLevel.of(record.getLevel()).name();
        line.append(level).append(" ".repeat(6 - level.length()))
                .append(record.getLoggerName()).append(": ").append(formatMessage(record));
        if (record.getThrown() != null) {
            StringWriter trace = new StringWriter();
            trace.append(System.lineSeparator());
            record.getThrown().printStackTrace(new PrintWriter(trace));
            line.append(trace.toString().stripTrailing());
        }
        return line.append(System.lineSeparator()).toString();
    }
}
