package io.insika.router.server.proxy;

import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.stream.Stream;

import io.insika.router.server.RouterServer;
import io.insika.router.server.testing.RawH2;
import io.insika.router.server.testing.TestProxySettings;
import io.insika.router.server.testing.TestServers;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

import static io.insika.router.server.testing.RawH2.get;
import static io.insika.router.server.testing.RawH2.request;
import static org.hamcrest.MatcherAssert.assertThat;
import static org.hamcrest.Matchers.containsString;
import static org.hamcrest.Matchers.is;
import static org.hamcrest.Matchers.startsWith;

/**
 * The HTTP/2 half of the conformance corpus (RFC 9113, sections 8.2 and 8.3): a raw h2 client
 * sends requests an HTTP/2 server must treat as malformed; each is refused (400, RST_STREAM or
 * GOAWAY) and never reaches the backend. Valid ones reach it as the HTTP/1.1 request they stand
 * for, their body byte for byte.
 */
@Timeout(60)
class H2RequestConformanceTest {

    private static TestBackend backend;
    private static RouterServer router;

    @BeforeAll
    static void start() {
        backend = TestBackend.start("backend-0");
        router = RouterServer.start(TestServers.settings(), RouterFixture.defaultRoutes(),
                RouterFixture.ketamaPool(List.of(backend.backend())), TestProxySettings.DEFAULTS);
    }

    @AfterAll
    static void stop() {
        router.close();
        backend.close();
    }

    static Stream<Arguments> malformedHeads() {
        return Stream.of(
                Arguments.of("connection", get("/x", "connection", "keep-alive")),
                Arguments.of("keep-alive", get("/x", "keep-alive", "timeout=5")),
                Arguments.of("proxy-connection", get("/x", "proxy-connection", "keep-alive")),
                Arguments.of("transfer-encoding", get("/x", "transfer-encoding", "chunked")),
                Arguments.of("upgrade", get("/x", "upgrade", "websocket")),
                Arguments.of("te other than trailers", get("/x", "te", "gzip")),
                Arguments.of("te with trailers and more", get("/x", "te", "trailers, gzip")),
                Arguments.of("an upper-case field name", get("/x", "X-Upper", "1")),
                Arguments.of("a pseudo-header after a regular field", new String[] {":method", "GET", ":scheme", "http",
                        "x-first", "1", ":path", "/x", ":authority", "router.test"}),
                Arguments.of("no :method", new String[] {":scheme", "http", ":path", "/x", ":authority", "router.test"}),
                Arguments.of("no :path", new String[] {":method", "GET", ":scheme", "http", ":authority", "router.test"}),
                Arguments.of("an unknown pseudo-header", get("/x", ":protocol", "websocket")),
                Arguments.of(":authority and Host that disagree", get("/x", "host", "other.test")));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("malformedHeads")
    void aMalformedHeadIsRefusedAndNeverReachesTheBackend(String why, String[] fields) throws Exception {
        int before = backend.hits.get();
        try (RawH2 client = RawH2.connect(router.port())) {
            client.headers(1, true, fields);
            RawH2.Outcome outcome = client.await(1);
            assertThat(why + ": " + outcome, outcome.refused(), is(true));
        }
        assertThat(why + " reached the backend", backend.hits.get(), is(before));
        assertUp();
    }

    @ParameterizedTest(name = "{0}")
    @org.junit.jupiter.params.provider.ValueSource(strings = {"keep-alive", "proxy-connection", "upgrade"})
    void aConnectionSpecificFieldHelidonLetsThroughGetsTheRoutersOwn400(String name) throws Exception {
        int before = backend.hits.get();
        try (RawH2 client = RawH2.connect(router.port())) {
            client.headers(1, true, get("/x", name, "x"));
            RawH2.Outcome outcome = client.await(1);
            assertThat(outcome.toString(), outcome.status(), is(400));
            assertThat(outcome.text(), containsString("\"error\""));
        }
        assertThat(backend.hits.get(), is(before));
    }

    @Test
    void aBodyShorterThanItsContentLengthIsRefusedAndNeverReachesTheBackend() throws Exception {
        assertBodyRefused("10", "{\"user\":1}".substring(0, 5));
    }

    @Test
    void aBodyLongerThanItsContentLengthIsRefusedAndNeverReachesTheBackend() throws Exception {
        assertBodyRefused("3", "{\"user\":\"u\"}");
    }

    @Test
    void aValidRequestReachesTheBackendAsHttp11WithItsBodyByteForByteAndItsCookiesJoined() throws Exception {
        byte[] body = ("{\"user\":\"exact\",\"blob\":\"" + "\u00e9\u20ac".repeat(20_000) + "\"}")
                .getBytes(StandardCharsets.UTF_8);
        try (RawH2 client = RawH2.connect(router.port())) {
            client.headers(1, false, request("POST", "/v1/responses?q=%2F", "content-type", "application/json",
                    "cookie", "a=1", "cookie", "b=2", "te", "trailers"));
            client.body(1, body); // ~100 KB: past the first 64 KiB only as the router grants more
            RawH2.Outcome outcome = client.await(1);

            assertThat(outcome.toString(), outcome.status(), is(200));
            assertThat(outcome.text(), is("backend-0 " + body.length + " " + TestBackend.sha256Hex(body)));
        }
        assertThat(backend.lastRawPath, is("/v1/responses"));
        assertThat(backend.lastRawQuery, is("q=%2F"));
        assertThat(backend.lastHeaders.get("cookie"), is(List.of("a=1; b=2")));
        assertThat(backend.lastHeaders.get("host"), is(List.of("router.test")));
        assertThat("te is hop-by-hop", backend.lastHeaders.containsKey("te"), is(false));
    }

    @Test
    void teTrailersAddsNoTrailerTheBackendDidNotSend() throws Exception {
        try (RawH2 client = RawH2.connect(router.port())) {
            client.headers(1, true, get("/bytes/100", "te", "trailers"));
            RawH2.Outcome outcome = client.await(1);

            assertThat(outcome.toString(), outcome.status(), is(200));
            assertThat(outcome.body().length, is(100));
            // Helidon 4.5 would announce "Trailer: stream-result" and send "stream-result: OK"
            assertThat(outcome.toString(), outcome.fields().size(), is(1));
            assertThat(outcome.toString(), outcome.fields().getFirst().httpHeaders().contains(
                    io.helidon.http.HeaderNames.TRAILER), is(false));
        }
    }

    @Test
    void aHostWithoutAuthorityBecomesTheForwardedHost() throws Exception {
        try (RawH2 client = RawH2.connect(router.port())) {
            client.headers(1, true, ":method", "GET", ":scheme", "http", ":path", "/only-host", "host", "h.test");
            RawH2.Outcome outcome = client.await(1);
            assertThat(outcome.toString(), outcome.status(), is(200));
        }
        assertThat(backend.lastRawPath, is("/only-host"));
        assertThat(backend.lastHeaders.get("host"), is(List.of("h.test")));
    }

    @Test
    void theAnswerCarriesNoConnectionSpecificField() throws Exception {
        try (RawH2 client = RawH2.connect(router.port())) {
            client.headers(1, true, get("/status/200"));
            RawH2.Outcome outcome = client.await(1);
            // a client (nghttp2, Node) would have refused the answer as malformed
            assertThat(outcome.toString(), outcome.status(), is(200));
            assertThat(outcome.reset() == null && !outcome.closed(), is(true));
        }
    }

    private void assertBodyRefused(String contentLength, String body) throws Exception {
        int before = backend.hits.get();
        try (RawH2 client = RawH2.connect(router.port())) {
            client.headers(1, false, request("POST", "/v1/responses", "content-type", "application/json",
                    "content-length", contentLength));
            client.data(1, true, body.getBytes(StandardCharsets.UTF_8));
            RawH2.Outcome outcome = client.await(1);
            assertThat(outcome.toString(), outcome.refused(), is(true));
        }
        assertThat("reached the backend", backend.hits.get(), is(before));
        assertUp();
    }

    private static void assertUp() throws Exception {
        try (RawH2 client = RawH2.connect(router.port())) {
            client.headers(1, true, get("/up"));
            RawH2.Outcome up = client.await(1);
            assertThat(up.toString(), up.status(), is(200));
            assertThat(up.text(), startsWith("OK"));
        }
    }
}
