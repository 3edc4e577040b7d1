package io.insika.router.server.plugin;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;
import java.util.logging.Level;
import java.util.logging.LogRecord;

import io.insika.router.server.routing.PluginFailedException;
import io.insika.router.server.testing.LogCapture;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import static org.hamcrest.MatcherAssert.assertThat;
import static org.hamcrest.Matchers.containsString;
import static org.hamcrest.Matchers.hasSize;
import static org.hamcrest.Matchers.instanceOf;
import static org.hamcrest.Matchers.is;

/** A plugin that fails on every request is said once per interval, not once per request. */
class PluginFailureLogTest {

    private static final Duration INTERVAL = Duration.ofMinutes(1);

    private final AtomicLong now = new AtomicLong(1_000);
    private final PluginFailureLog log = new PluginFailureLog(INTERVAL, now::get);
    private final LogCapture capture = LogCapture.of(PluginFailureLog.class);

    @AfterEach
    void tearDown() {
        capture.close();
    }

    @Test
    void theFirstFailureIsSaidAtOnceWithWhatItThrew() {
        log.failed(picking("boom"), "its requests are answered 500");

        List<LogRecord> said = capture.records(Level.WARNING);
        assertThat(said, hasSize(1));
        assertThat(said.getFirst().getMessage(), is("strategy broken threw picking a key's owner:"
                + " java.lang.IllegalStateException: boom; its requests are answered 500 (said again at most once"
                + " every 1m, with a count)"));
        assertThat(said.getFirst().getThrown(), instanceOf(IllegalStateException.class));
    }

    @Test
    void failuresWithinTheIntervalAreCountedAndSaidWithTheNextRecord() {
        log.failed(picking("first"), "answered 500");
        for (int i = 0; i < 500; i++) {
            now.addAndGet(Duration.ofMillis(100).toNanos());
            log.failed(picking("again"), "answered 500");
        }
        assertThat("50 s of failures after the first", capture.records(Level.WARNING), hasSize(1));

        now.addAndGet(Duration.ofSeconds(10).toNanos());
        log.failed(picking("later"), "answered 500");

        List<LogRecord> said = capture.records(Level.WARNING);
        assertThat(said, hasSize(2));
        assertThat(said.get(1).getMessage(), containsString("IllegalStateException: later; answered 500"
                + " (501 time(s) since last said)"));
    }

    @Test
    void eachPluginDoingEachThingHasAnIntervalOfItsOwn() {
        log.failed(picking("boom"), "answered 500");
        log.failed(new PluginFailedException("strategy", "broken", "building a picker", new IllegalStateException()),
                "kept the backends");
        log.failed(new PluginFailedException("key extractor", "header", "reading a key", new IllegalStateException()),
                "answered 500");
        log.failed(picking("boom"), "answered 500");

        assertThat(capture.records(Level.WARNING), hasSize(3));
    }

    private static PluginFailedException picking(String message) {
        return new PluginFailedException("strategy", "broken", "picking a key's owner",
                new IllegalStateException(message));
    }
}
