package io.insika.router.server.proxy;

import java.io.IOException;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

import io.insika.router.server.RouterServer;
import io.insika.router.server.testing.Eventually;
import io.insika.router.server.testing.RawH2;
import io.insika.router.server.testing.Scrape;
import io.insika.router.server.testing.TestProxySettings;
import io.insika.router.server.testing.TestServers;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import static io.insika.router.server.testing.RawH2.get;
import static org.hamcrest.MatcherAssert.assertThat;
import static org.hamcrest.Matchers.is;
import static org.hamcrest.Matchers.lessThan;

/**
 * The HTTP/2 floods and limits, with a raw client: rapid reset (CVE-2023-44487), CONTINUATION
 * flood, an oversized header list, SETTINGS and PING floods, more streams than allowed, the
 * connection limit and the deadlines of a client that says nothing. After each the router lives
 * and {@code /up} answers on a new connection.
 */
@Timeout(90)
class Http2LimitsTest {

    private static final Duration LIMIT = Duration.ofSeconds(20);
    private static final int ENHANCE_YOUR_CALM = 0xb;

    private TestBackend backend;
    private RouterServer router;

    @AfterEach
    void stop() {
        if (router != null) {
            router.close();
        }
        if (backend != null) {
            backend.holdRelease.release(100);
            backend.close();
        }
    }

    @Test
    void rapidResetEndsTheConnectionWithEnhanceYourCalmAfterFiftyStreams() throws Exception {
        start(Http2Settings.DEFAULTS, 100);
        try (RawH2 client = RawH2.connect(router.port())) {
            // Helidon 4.5 allows 50 streams reset before their answer began per 10 s; the 51st ends
            // the connection. All 51 leave in one write, and nothing after it: a close with frames
            // of ours unread would reset the socket and lose the GOAWAY before it is read.
            java.io.ByteArrayOutputStream pairs = new java.io.ByteArrayOutputStream();
            for (int n = 0, stream = 1; n < 51; n++, stream += 2) {
                // a body still to come: the stream waits for it, nothing of its answer is sent
                pairs.writeBytes(RawH2.frameBytes(RawH2.HEADERS, RawH2.END_HEADERS, stream,
                        RawH2.block(RawH2.request("POST", "/v1/responses", "content-type", "application/json"))));
                pairs.writeBytes(RawH2.frameBytes(RawH2.RST_STREAM, 0, stream, new byte[] {0, 0, 0, 8}));
            }
            client.socket().getOutputStream().write(pairs.toByteArray());
            RawH2.Frame goaway = null;
            try {
                while (goaway == null) {
                    RawH2.Frame frame = client.read();
                    goaway = frame.type() == RawH2.GOAWAY ? frame : null;
                }
            } catch (IOException closed) {
                throw new AssertionError("closed without a GOAWAY", closed);
            }
            assertThat(goaway.toString(), goaway.errorCode(), is(ENHANCE_YOUR_CALM));
            assertThat("closed after it", client.closesWithin(LIMIT), is(true));
        }
        assertThat("no reset stream reached the backend", backend.hits.get(), is(0));
        // what an operator sees of it
        Scrape metrics = Scrape.of(router.adminPort());
        assertThat(metrics.sum("insika_router_http2_connections_total"), is(1.0));
        assertThat(metrics.sum("insika_router_http2_streams_total"), is(51.0));
        assertThat(metrics.sum("insika_router_http2_client_resets_total"), is(51.0));
        assertThat(metrics.matching("insika_router_http2_goaways_total").toString(),
                metrics.sum("insika_router_http2_goaways_total", "error", "ENHANCE_YOUR_CALM"), is(1.0));
        assertThat(metrics.sum("insika_router_http2_goaways_total"), is(1.0));
        assertUp();
    }

    @Test
    void thousandsOfRapidResetsNeverReachThousandsOfStreams() throws Exception {
        start(Http2Settings.DEFAULTS, 100);
        int sent = 0;
        try (RawH2 client = RawH2.connect(router.port())) {
            try {
                for (int stream = 1; sent < 5_000; stream += 2, sent++) {
                    client.headers(stream, true, get("/reset-" + sent));
                    client.reset(stream);
                }
            } catch (IOException closed) {
                // the router closed it under our writes
            }
            assertThat("went away or closed", goneAway(client), is(true));
        }
        assertThat("the backend saw only the first few", backend.hits.get(), lessThan(100));
        assertUp();
    }

    @Test
    void aContinuationFloodIsCutAtTheHeaderListLimit() throws Exception {
        start(Http2Settings.DEFAULTS, 100);
        long sent = 0;
        try (RawH2 client = RawH2.connect(router.port())) {
            try {
                client.frame(RawH2.HEADERS, 0, 1, RawH2.block(get("/continued")));
                byte[] more = RawH2.block("x-flood", "y".repeat(1000));
                for (int i = 0; i < 10_000; i++) { // 10 MB of one header list, never ended
                    client.frame(RawH2.CONTINUATION, 0, 1, more);
                    sent += more.length;
                }
            } catch (IOException closed) {
                // cut under our writes
            }
            assertThat("went away or closed", goneAway(client), is(true));
        }
        assertThat("cut long before the end", sent, lessThan(10_000L * 1000));
        assertThat(backend.hits.get(), is(0));
        assertUp();
    }

    @Test
    void aHeaderListOverTheLimitIsRefused() throws Exception {
        start(Http2Settings.DEFAULTS, 100);
        try (RawH2 client = RawH2.connect(router.port())) {
            client.frame(RawH2.HEADERS, 0, 1, RawH2.block(get("/big", "x-a", "a".repeat(12_000))));
            client.frame(RawH2.CONTINUATION, RawH2.END_HEADERS, 1, RawH2.block("x-b", "b".repeat(8_000)));
            RawH2.Outcome outcome = client.await(1);
            assertThat(outcome.toString(), outcome.refused() || outcome.status() == 431, is(true));
        }
        assertThat(backend.hits.get(), is(0));
        assertUp();
    }

    @Test
    void theRoutersSettingsAnnounceTheConfiguredLimits() throws Exception {
        start(new Http2Settings(true, 7, 20_000, 30_000), 100);
        try (RawH2 client = RawH2.connect(router.port())) {
            RawH2.Frame settings = client.read();
            assertThat(settings.toString(), settings.type(), is(RawH2.SETTINGS));
            java.util.Map<Integer, Long> announced = new java.util.HashMap<>();
            java.nio.ByteBuffer payload = java.nio.ByteBuffer.wrap(settings.payload());
            while (payload.remaining() >= 6) {
                announced.put(payload.getShort() & 0xffff, payload.getInt() & 0xffffffffL);
            }
            assertThat(announced.toString(), announced.get(0x3), is(7L)); // SETTINGS_MAX_CONCURRENT_STREAMS
            assertThat(announced.toString(), announced.get(0x4), is(30_000L)); // SETTINGS_INITIAL_WINDOW_SIZE
            assertThat(announced.toString(), announced.get(0x6), is(20_000L)); // SETTINGS_MAX_HEADER_LIST_SIZE
        }
    }

    @Test
    void aHeaderListUnderTheConfiguredLimitIsServedThoughOverHelidonsDefault() throws Exception {
        start(Http2Settings.DEFAULTS, 100);
        try (RawH2 client = RawH2.connect(router.port())) {
            client.headers(1, true, get("/twelve-k", "x-a", "a".repeat(12_000)));
            RawH2.Outcome outcome = client.await(1);
            assertThat(outcome.toString(), outcome.status(), is(200));
        }
        assertThat(backend.lastHeaders.get("x-a"), is(List.of("a".repeat(12_000))));
    }

    @Test
    void aSettingsFloodLeavesTheRouterServing() throws Exception {
        start(Http2Settings.DEFAULTS, 100);
        flood(RawH2.SETTINGS, 0, new byte[] {0, 3, 0, 0, 0, 100}); // SETTINGS_MAX_CONCURRENT_STREAMS = 100
        assertUp();
    }

    @Test
    void aPingFloodLeavesTheRouterServing() throws Exception {
        start(Http2Settings.DEFAULTS, 100);
        flood(RawH2.PING, 0, new byte[8]);
        assertUp();
    }

    @Test
    void aStreamBeyondMaxConcurrentStreamsEndsTheConnectionWithGoaway() throws Exception {
        start(new Http2Settings(true, 2, Http2Settings.DEFAULT_MAX_HEADER_LIST_SIZE,
                Http2Settings.DEFAULT_INITIAL_WINDOW_SIZE), 100);
        try (RawH2 client = RawH2.connect(router.port())) {
            client.headers(1, true, get("/held-1", "x-hold", "1"));
            client.headers(3, true, get("/held-2", "x-hold", "1"));
            Eventually.await(LIMIT, () -> backend.holding.get() == 2, () -> "holding " + backend.holding.get());
            client.headers(5, true, get("/third"));
            RawH2.Outcome third = client.await(5);
            // Helidon 4.5 answers the stream past the limit with a connection error (GOAWAY), not
            // RST_STREAM REFUSED_STREAM for that stream alone (RFC 9113, 5.1.2 allows either)
            assertThat(third.toString(), third.reset() != null && third.reset().type() == RawH2.GOAWAY, is(true));
            assertThat(third.toString(), third.status(), is(0));
        }
        backend.holdRelease.release(2);
        assertUp();
    }

    @Test
    void eachH2ConnectionTakesTheConnectionSlotsItsWindowIsWorth() throws Exception {
        int slots = Http2Selector.connectionSlots(Http2Settings.DEFAULTS);
        assertThat("with the default window", slots, is(8));
        start(Http2Settings.DEFAULTS, 2 * slots);
        try (RawH2 first = RawH2.connect(router.port()); RawH2 second = RawH2.connect(router.port())) {
            assertThat(first.read().type(), is(RawH2.SETTINGS));
            assertThat(second.read().type(), is(RawH2.SETTINGS));
            Eventually.await(LIMIT, () -> openConnections() == 2 * slots,
                    () -> "open " + openConnections());
            try (RawH2 third = RawH2.connect(router.port())) {
                assertThat("closed before its SETTINGS", third.closesWithin(LIMIT), is(true));
            }
        }
        Eventually.await(LIMIT, () -> openConnections() == 0, () -> "open " + openConnections());
        assertUp();
    }

    @Test
    void aConnectionThatSendsNothingOrOnlyThePrefaceIsClosedAfterTheHeadTimeoutAndOneThatAskedAfterTheIdleTimeout()
            throws Exception {
        backend = TestBackend.start("backend-0");
        router = RouterServer.start(TestServers.settings(100, Duration.ofMillis(500), Duration.ofSeconds(4),
                        Http2Settings.DEFAULTS), RouterFixture.defaultRoutes(),
                RouterFixture.ketamaPool(List.of(backend.backend())), TestProxySettings.DEFAULTS);
        long start = System.nanoTime();
        try (Socket silent = new Socket("127.0.0.1", router.port());
             RawH2 preface = RawH2.connect(router.port());
             RawH2 asked = RawH2.connect(router.port())) {
            asked.headers(1, true, get("/up"));
            assertThat(asked.await(1).status(), is(200));
            silent.setSoTimeout((int) LIMIT.toMillis());
            try {
                assertThat(silent.getInputStream().read(), is(-1));
            } catch (SocketTimeoutException e) {
                throw new AssertionError("a silent connection was left open", e);
            } catch (IOException reset) {
                // closed
            }
            assertThat("closed within a few head timeouts", System.nanoTime() - start,
                    lessThan(TimeUnit.SECONDS.toNanos(3)));
            // claimed by HTTP/2 at its preface, it still has to open a stream within the head timeout
            assertThat("the preface alone: closed after the head timeout", preface.closesWithin(Duration.ofSeconds(3)),
                    is(true));
            assertThat("closed before the idle timeout", System.nanoTime() - start,
                    lessThan(TimeUnit.SECONDS.toNanos(4)));
            // one that asked is timed by server.idle-timeout from then on
            assertThat("open past the head timeout", asked.closesWithin(Duration.ofMillis(1500)), is(false));
            assertThat("closed after the idle timeout", asked.closesWithin(Duration.ofSeconds(10)), is(true));
        }
        assertUp();
    }

    // Writes the frame as fast as the router reads it, draining what it answers, for a while
    private void flood(int type, int flags, byte[] payload) throws Exception {
        AtomicInteger answered = new AtomicInteger();
        try (RawH2 client = RawH2.connect(router.port())) {
            Thread drain = Thread.ofVirtual().start(() -> {
                try {
                    while (true) {
                        client.read();
                        answered.incrementAndGet();
                    }
                } catch (IOException done) {
                    // closed
                }
            });
            try {
                for (int i = 0; i < 50_000; i++) {
                    client.frame(type, flags, 0, payload);
                }
            } catch (IOException closed) {
                // the router may cut a flood
            }
            client.close();
            drain.join(LIMIT.toMillis());
        }
    }

    private int openConnections() {
        return (int) Scrape.of(router.adminPort()).sum("insika_router_client_connections");
    }

    private static boolean goneAway(RawH2 client) throws IOException {
        client.socket().setSoTimeout((int) LIMIT.toMillis());
        try {
            while (true) {
                RawH2.Frame frame = client.read();
                if (frame.type() == RawH2.GOAWAY) {
                    return true;
                }
            }
        } catch (SocketTimeoutException open) {
            return false;
        } catch (IOException closed) {
            return true;
        }
    }

    private void start(Http2Settings http2, int maxConnections) {
        backend = TestBackend.start("backend-0");
        router = RouterServer.start(TestServers.settings(maxConnections, Duration.ofSeconds(30), Duration.ofSeconds(60),
                        http2), RouterFixture.defaultRoutes(), RouterFixture.ketamaPool(List.of(backend.backend())),
                TestProxySettings.DEFAULTS);
    }

    private void assertUp() throws Exception {
        try (RawH2 client = RawH2.connect(router.port())) {
            client.headers(1, true, get("/up"));
            RawH2.Outcome up = client.await(1);
            assertThat(up.toString(), up.status(), is(200));
        }
    }

}
