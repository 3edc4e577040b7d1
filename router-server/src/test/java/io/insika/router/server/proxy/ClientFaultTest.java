package io.insika.router.server.proxy;

import java.util.ArrayList;
import java.util.List;
import java.util.logging.Level;

import io.insika.router.server.RouterServer;
import io.insika.router.server.testing.LogCapture;
import io.insika.router.server.testing.Scrape;
import io.insika.router.server.testing.TestServers;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import io.insika.router.server.testing.TestProxySettings;

import static io.insika.router.server.proxy.EdgeSafetyTest.rawExchange;
import static org.hamcrest.MatcherAssert.assertThat;
import static org.hamcrest.Matchers.is;
import static org.hamcrest.Matchers.startsWith;

/**
 * A head the client got wrong is the client's fault: answered 400 before any backend is chosen,
 * it takes no backend connection and counts against no backend, however often it is sent.
 */
class ClientFaultTest {

    private static final List<String> WRONG_HEADS = List.of(
            "GET /a HTTP/1.1\r\nHost: x\r\n: y\r\n\r\n",
            "GET /a HTTP/1.1\r\nHost: x\r\nX(A): y\r\n\r\n",
            "POST /v1/responses HTTP/1.1\r\nHost: x\r\n: y\r\nContent-Length: 12\r\n\r\n{\"user\":\"a\"}",
            "G(T /a HTTP/1.1\r\nHost: x\r\n\r\n",
            "GET http://user:pass@other/a HTTP/1.1\r\nHost: x\r\n\r\n",
            "GET ftp://other/a HTTP/1.1\r\nHost: x\r\n\r\n");

    private final List<RecordingBackend> backends = new ArrayList<>();
    private RouterServer router;

    @BeforeEach
    void start() throws Exception {
        for (int i = 0; i < 3; i++) {
            backends.add(RecordingBackend.start());
        }
        router = TestServers.start(RouterFixture.defaultRoutes(),
                RouterFixture.ketamaPool(backends.stream().map(RecordingBackend::backend).toList()),
                TestProxySettings.DEFAULTS);
    }

    @AfterEach
    void stop() {
        router.close();
        backends.forEach(RecordingBackend::close);
    }

    @Test
    void wrongHeadsAreRefusedWithoutABackendConnectionOrABlamedBackend() throws Exception {
        for (int round = 0; round < 10; round++) {
            for (String head : WRONG_HEADS) {
                assertThat(head, rawExchange(router.port(), head), startsWith("HTTP/1.1 400"));
            }
        }

        for (RecordingBackend backend : backends) {
            assertThat("connections the backend accepted", backend.sizes().size(), is(0));
        }
        Scrape scrape = Scrape.of(router.adminPort());
        assertThat(scrape.sum("insika_router_backend_errors_total"), is(0.0));
        assertThat(scrape.sum("insika_router_redispatches_total"), is(0.0));
        for (int i = 0; i < backends.size(); i++) {
            assertThat("no backend is down", rawExchange(router.port(),
                    "GET /after HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n"), startsWith("HTTP/1.1 200"));
        }
    }

    @Test
    void aMethodThatIsNotATokenCostsNoWarningInTheLog() throws Exception {
        try (LogCapture helidon = LogCapture.of("io.helidon.webserver.http1.Http1Connection")) {
            for (int i = 0; i < 5; i++) {
                assertThat(rawExchange(router.port(), "G(T /a HTTP/1.1\r\nHost: x\r\n\r\n"),
                        startsWith("HTTP/1.1 400"));
            }
            assertThat(helidon.messages(Level.WARNING), is(List.of()));
        }
    }

    @Test
    void wrongHeadsPipelinedOnOneConnectionEndItAtTheFirst() throws Exception {
        String answers = rawExchange(router.port(), WRONG_HEADS.getFirst().repeat(50));

        assertThat(answers, startsWith("HTTP/1.1 400"));
        assertThat("one answer, and then the close", answers.indexOf("HTTP/1.1", 1), is(-1));
        for (RecordingBackend backend : backends) {
            assertThat("connections the backend accepted", backend.sizes().size(), is(0));
        }
    }
}
