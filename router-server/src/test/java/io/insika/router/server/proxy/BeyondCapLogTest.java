package io.insika.router.server.proxy;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;
import java.util.logging.Level;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import io.insika.router.server.routing.Route;
import io.insika.router.server.testing.LogCapture;
import io.insika.router.server.testing.TestProxySettings;

import static org.hamcrest.MatcherAssert.assertThat;
import static org.hamcrest.Matchers.containsString;
import static org.hamcrest.Matchers.hasSize;
import static org.hamcrest.Matchers.is;

/**
 * A keyed request round-robined because its key lay beyond the body cap is said at INFO, once
 * per route and interval, with the count since the route's last line.
 */
class BeyondCapLogTest {

    private final AtomicLong now = new AtomicLong(1_000);
    private final BeyondCapLog log = new BeyondCapLog(Duration.ofMinutes(1), now::get);
    private final LogCapture capture = LogCapture.of(BeyondCapLog.class);
    private final List<Route> routes = RouterFixture.defaultRoutes().routes();

    @AfterEach
    void tearDown() {
        capture.close();
    }

    @Test
    void theFirstIsSaidAtOnceAndTheRestOncePerIntervalWithTheirCount() {
        Route route = routes.getFirst();
        log.roundRobined(route, 1024);
        assertThat(capture.formatted(Level.INFO), is(List.of("1 request(s) on " + route + " went round-robin: no key"
                + " within the first 1024 bytes (body-max-bytes) of a longer body; their sessions scatter. Raise"
                + " body-max-bytes, or send the key first (said at most once every 1m, with the count since)")));

        for (int i = 0; i < 59; i++) {
            now.addAndGet(Duration.ofSeconds(1).toNanos());
            log.roundRobined(route, 1024);
        }
        assertThat("within the interval: counted, not said", capture.formatted(Level.INFO), hasSize(1));

        now.addAndGet(Duration.ofSeconds(2).toNanos());
        log.roundRobined(route, 1024);
        assertThat(capture.formatted(Level.INFO), hasSize(2));
        assertThat(capture.formatted(Level.INFO).get(1), containsString("60 request(s) on " + route + " went"));
    }

    @Test
    void eachRouteHasItsOwnInterval() {
        log.roundRobined(routes.get(0), 1024);
        log.roundRobined(routes.get(1), 1024);

        assertThat(capture.formatted(Level.INFO), hasSize(2));
    }

    @Test
    void aRouterSaysItWithoutDebugLoggingOrTheAccessLog() throws Exception {
        RouterFixture router = RouterFixture.withBackends(2, TestProxySettings.builder().bodyMaxBytes(1024).build());
        try {
            for (int i = 0; i < 3; i++) {
                RouterFixture.CLIENT.send(java.net.http.HttpRequest.newBuilder(router.uri("/v1/responses"))
                        .POST(java.net.http.HttpRequest.BodyPublishers.ofString(
                                "{\"input\":\"" + "x".repeat(2000) + "\",\"user\":\"late\"}")).build(),
                        java.net.http.HttpResponse.BodyHandlers.discarding());
            }

            List<String> said = capture.formatted(Level.INFO);
            assertThat(said, hasSize(1));
            assertThat(said.getFirst(), containsString("1 request(s) on POST /v1/responses went round-robin"));
        } finally {
            router.close();
        }
    }
}
