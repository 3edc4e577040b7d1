package io.insika.router.server.testing;

import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.logging.Handler;
import java.util.logging.Level;
import java.util.logging.LogRecord;
import java.util.logging.Logger;

/** Collects what one logger writes, so a test can assert a warning was logged. */
public final class LogCapture extends Handler implements AutoCloseable {

    private final Logger logger;
    private final List<LogRecord> records = new CopyOnWriteArrayList<>();

    private LogCapture(Logger logger) {
        this.logger = logger;
    }

    public static LogCapture of(Class<?> loggerName) {
        return of(loggerName.getName());
    }

    public static LogCapture of(String loggerName) {
        LogCapture capture = new LogCapture(Logger.getLogger(loggerName));
        capture.setLevel(Level.ALL);
        capture.logger.addHandler(capture);
        return capture;
    }

    /** The messages logged at exactly this level, formatted. */
    public List<String> messages(Level level) {
        return records.stream().filter(r -> r.getLevel().equals(level)).map(LogRecord::getMessage).toList();
    }

    /** The messages logged at exactly this level, with their parameters filled in. */
    public List<String> formatted(Level level) {
        java.util.logging.Formatter formatter = new java.util.logging.SimpleFormatter();
        return records.stream().filter(r -> r.getLevel().equals(level)).map(formatter::formatMessage).toList();
    }

    /** The records logged at exactly this level, whole: with what was thrown, if anything. */
    public List<LogRecord> records(Level level) {
        return records.stream().filter(r -> r.getLevel().equals(level)).toList();
    }

    @Override
    public void publish(LogRecord record) {
        records.add(record);
    }

    @Override
    public void flush() {
    }

    @Override
    public void close() {
        logger.removeHandler(this);
    }
}
