package io.insika.router.server.logging;

import java.util.Map;
import java.util.logging.Level;
import java.util.logging.LogRecord;

import io.insika.router.server.testing.JsonLine;
import org.junit.jupiter.api.Test;

import static org.hamcrest.MatcherAssert.assertThat;
import static org.hamcrest.Matchers.contains;
import static org.hamcrest.Matchers.containsString;
import static org.hamcrest.Matchers.is;
import static org.hamcrest.Matchers.nullValue;

/** {@code logging.format: json}: each record of the router's own log is one JSON object on one line. */
class JsonLogFormatterTest {

    private final JsonLogFormatter formatter = new JsonLogFormatter();

    @Test
    void aRecordIsOneLineWithTimeLevelLoggerAndTheFormattedMessage() {
        LogRecord record = new LogRecord(Level.INFO, "backends: {0}");
        record.setParameters(new Object[] {"static http://10.0.0.1:8080"});
        record.setLoggerName("io.insika.router.server.Router");
        record.setMillis(1_764_566_219_305L);

        String line = formatter.format(record);

        assertThat(line.endsWith("\n") && line.indexOf('\n') == line.length() - 1, is(true));
        Map<String, String> fields = JsonLine.parse(line);
        assertThat(fields.get("time"), is("2025-12-01T05:16:59.305Z"));
        assertThat(fields.get("level"), is("info"));
        assertThat(fields.get("logger"), is("io.insika.router.server.Router"));
        assertThat(fields.get("message"), is("backends: static http://10.0.0.1:8080"));
        assertThat(fields.containsKey("error"), is(false));
    }

    @Test
    void newlinesAndQuotesInTheMessageAndTheStackTraceStayInsideTheOneLine() {
        LogRecord record = new LogRecord(Level.WARNING, "a \"forged\"\n{\"level\":\"INFO\"} line");
        record.setLoggerName("io.insika.router.server.proxy.ProxyHandler");
        record.setThrown(new IllegalStateException("backend said\nno"));

        String line = formatter.format(record);

        assertThat(line.indexOf('\n'), is(line.length() - 1));
        Map<String, String> fields = JsonLine.parse(line);
        assertThat(fields.get("message"), is("a \"forged\"\n{\"level\":\"INFO\"} line"));
        assertThat(fields.get("level"), is("warn"));
        assertThat(fields.get("error"), containsString("java.lang.IllegalStateException: backend said\nno"));
        assertThat(fields.get("error"), containsString("at io.insika.router.server.logging.JsonLogFormatterTest"));
    }

    @Test
    void theLevelIsNamedDebugInfoWarnOrErrorAndTheTimeAlwaysHasItsMillisecondsAndZone() {
        Map<Level, String> named = new java.util.LinkedHashMap<>();
        for (Level level : java.util.List.of(Level.FINEST, Level.FINER, Level.FINE, Level.CONFIG, Level.INFO,
                Level.WARNING, Level.SEVERE)) {
            LogRecord record = new LogRecord(level, "m");
            record.setLoggerName("io.insika.router.server.Router");
            record.setMillis(1_764_566_219_000L);
            Map<String, String> fields = JsonLine.parse(formatter.format(record));
            named.put(level, fields.get("level"));
            assertThat(fields.get("time"), is("2025-12-01T05:16:59.000Z"));
        }

        assertThat(named.values(), contains("debug", "debug", "debug", "debug", "info", "warn", "error"));
    }

    @Test
    void textAndJsonAreTheSpellingsAndNothingElse() {
        assertThat(LogFormat.parse("JSON").orElseThrow(), is(LogFormat.JSON));
        assertThat(LogFormat.parse("text").orElseThrow(), is(LogFormat.TEXT));
        assertThat(LogFormat.parse("logfmt").orElse(null), nullValue());
    }
}
