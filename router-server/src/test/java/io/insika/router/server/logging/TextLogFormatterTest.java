package io.insika.router.server.logging;

import java.util.logging.Level;
import java.util.logging.LogRecord;

import org.junit.jupiter.api.Test;

import static org.hamcrest.MatcherAssert.assertThat;
import static org.hamcrest.Matchers.is;
import static org.hamcrest.Matchers.startsWith;

/** {@code logging.format: text}: one line per record, its time in RFC 3339 with the zone. */
class TextLogFormatterTest {

    private final TextLogFormatter formatter = new TextLogFormatter();

    @Test
    void aRecordIsTheTimeInRfc3339TheLevelTheLoggerAndTheMessage() {
        LogRecord record = new LogRecord(Level.WARNING, "backend {0} is down");
        record.setParameters(new Object[] {"10.0.0.1:8080"});
        record.setLoggerName("io.insika.router.server.backends.BackendHealth");
        record.setMillis(1_796_318_000_000L);

        assertThat(formatter.format(record), is("2026-12-03T17:13:20.000Z WARN  io.insika.router.server.backends"
                + ".BackendHealth: backend 10.0.0.1:8080 is down" + System.lineSeparator()));
    }

    @Test
    void aStackTraceFollowsOnTheLinesAfter() {
        LogRecord record = new LogRecord(Level.SEVERE, "reload failed");
        record.setLoggerName("io.insika.router.server.cli.ReloadSignal");
        record.setMillis(1_764_566_219_305L);
        record.setThrown(new IllegalStateException("broken"));

        String[] lines = formatter.format(record).split(System.lineSeparator());

        assertThat(lines[0], is("2025-12-01T05:16:59.305Z ERROR io.insika.router.server.cli.ReloadSignal: reload failed"));
        assertThat(lines[1], is("java.lang.IllegalStateException: broken"));
        assertThat(lines[2], startsWith("\tat io.insika.router.server.logging.TextLogFormatterTest"));
    }
}
