package io.insika.router.server.logging;

import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.io.UncheckedIOException;
import java.util.logging.Formatter;
import java.util.logging.LogRecord;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonGenerator;

/**
 * One JSON object per log record, on one line: {@code time} (RFC 3339, UTC, milliseconds),
 * {@code level} ({@code debug}, {@code info}, {@code warn} or {@code error}), {@code logger},
 * {@code message}, and {@code error} with the stack trace when there is one.
 * Newlines inside the message or the trace are escaped by the JSON writer, so a record is
 * always exactly one line.
 */
public final class JsonLogFormatter extends Formatter {

    private static final JsonFactory JSON = new JsonFactory();

    @Override
    public String format(LogRecord record) {
        StringWriter line = new StringWriter(160);
        try (JsonGenerator json = JSON.createGenerator(line)) {
            json.writeStartObject();
            json.writeStringField("time", LogTime.format(record.getInstant()));
            json.writeStringField("level", LogLevel.of(record.getLevel()).label());
            json.writeStringField("logger", record.getLoggerName());
            json.writeStringField("message", formatMessage(record));
            if (record.getThrown() != null) {
                StringWriter trace = new StringWriter();
                record.getThrown().printStackTrace(new PrintWriter(trace));
                json.writeStringField("error", trace.toString());
            }
            json.writeEndObject();
        } catch (IOException e) {
            throw new UncheckedIOException(e); // a StringWriter does not fail
        }
        return line.append('\n').toString();
    }
}
