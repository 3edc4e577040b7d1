package io.insika.router.server.proxy;

import java.io.IOException;
import java.net.Socket;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.function.Function;

import io.insika.router.server.RouterServer;
import io.insika.router.server.testing.ScriptedBackend;
import io.insika.router.server.testing.TestServers;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import io.insika.router.server.testing.TestProxySettings;

import static io.insika.router.server.proxy.RouterFixture.CLIENT;
import static org.hamcrest.MatcherAssert.assertThat;
import static org.hamcrest.Matchers.containsString;
import static org.hamcrest.Matchers.is;
import static org.hamcrest.Matchers.not;
import static org.junit.jupiter.api.Assertions.assertThrows;

/**
 * How the router reads a backend's answer off the wire (RFC 9112): every framing a server may
 * use reaches the client intact, the connection is kept only when the framing says the answer
 * ended cleanly, and an answer that cannot be framed becomes a 502 (before anything was sent
 * to the client) or a closed client connection (after).
 */
class BackendAnswerFramingTest {

    private ScriptedBackend backend;
    private RouterServer router;

    @AfterEach
    void stop() {
        if (router != null) {
            router.close();
        }
        if (backend != null) {
            backend.close();
        }
    }

    private void start(Function<String, ScriptedBackend.Answer> script) throws IOException {
        backend = ScriptedBackend.answering(script);
        router = TestServers.start(RouterFixture.defaultRoutes(),
                RouterFixture.ketamaPool(List.of(backend.backend())), TestProxySettings.DEFAULTS);
    }

    private HttpResponse<String> get(String path) throws Exception {
        return CLIENT.send(HttpRequest.newBuilder(java.net.URI.create("http://127.0.0.1:" + router.port() + path))
                .build(), HttpResponse.BodyHandlers.ofString(StandardCharsets.ISO_8859_1));
    }

    @Test
    void aChunkedAnswerWithExtensionsAndTrailersArrivesDecodedAndKeepsTheConnection() throws Exception {
        start(head -> ScriptedBackend.Answer.keep("HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n"
                + "5;name=value\r\nhello\r\n6\r\n world\r\n0\r\nX-Trailer: t\r\n\r\n"));
        for (int i = 0; i < 3; i++) {
            HttpResponse<String> response = get("/chunked");
            assertThat(response.statusCode(), is(200));
            assertThat(response.body(), is("hello world"));
        }
        assertThat(backend.connections.get(), is(1));
    }

    @Test
    void anAnswerThatAsksToCloseIsRelayedAndItsConnectionNotReused() throws Exception {
        start(head -> ScriptedBackend.Answer.thenClose("HTTP/1.1 200 OK\r\nContent-Length: 2\r\nConnection: close\r\n\r\nok"));
        for (int i = 0; i < 3; i++) {
            HttpResponse<String> response = get("/close");
            assertThat(response.body(), is("ok"));
            assertThat(response.headers().firstValue("connection").orElse(""), not(containsString("close")));
        }
        assertThat(backend.connections.get(), is(3));
    }

    @Test
    void aBodyEndedByTheCloseArrivesWhole() throws Exception {
        start(head -> ScriptedBackend.Answer.thenClose("HTTP/1.1 200 OK\r\nContent-Type: text/plain\r\n\r\n"
                + "x".repeat(100_000)));
        for (int i = 0; i < 2; i++) {
            HttpResponse<String> response = get("/until-close");
            assertThat(response.statusCode(), is(200));
            assertThat(response.body().length(), is(100_000));
        }
        assertThat(backend.connections.get(), is(2));
    }

    @Test
    void anHttp10AnswerIsRelayedAndItsConnectionNotReused() throws Exception {
        start(head -> ScriptedBackend.Answer.keep("HTTP/1.0 200 OK\r\nContent-Length: 4\r\n\r\nold!"));
        assertThat(get("/old").body(), is("old!"));
        assertThat(get("/old").body(), is("old!"));
        assertThat(backend.connections.get(), is(2));
    }

    @Test
    void interimAnswersAreReadPastAndTheFinalOneRelayed() throws Exception {
        start(head -> ScriptedBackend.Answer.keep("HTTP/1.1 100 Continue\r\n\r\n"
                + "HTTP/1.1 103 Early Hints\r\nLink: </a.css>; rel=preload\r\n\r\n"
                + "HTTP/1.1 201 Created\r\nContent-Length: 4\r\n\r\ndone"));
        HttpResponse<String> response = get("/interim");
        assertThat(response.statusCode(), is(201));
        assertThat(response.body(), is("done"));
    }

    @Test
    void theBackendsHopByHopHeadersStayBehindAndItsOthersArrive() throws Exception {
        start(head -> ScriptedBackend.Answer.keep("HTTP/1.1 200 OK\r\nConnection: X-Hop, keep-alive\r\n"
                + "X-Hop: private\r\nKeep-Alive: timeout=5\r\nX-Engine: e1\r\nSet-Cookie: a=1\r\n"
                + "set-cookie: b=2\r\nContent-Length: 2\r\n\r\nok"));
        HttpResponse<String> response = get("/headers");
        assertThat(response.headers().firstValue("x-engine").orElse(""), is("e1"));
        assertThat(response.headers().allValues("set-cookie"), is(List.of("a=1", "b=2")));
        assertThat(response.headers().firstValue("x-hop").isPresent(), is(false));
        assertThat(response.headers().firstValue("keep-alive").isPresent(), is(false));
    }

    @Test
    void aGarbledStatusLineIsA502() throws Exception {
        start(head -> ScriptedBackend.Answer.thenClose("SMTP ready\r\n\r\n"));
        assertNotRetryable502(get("/garbled"));
    }

    @Test
    void aFoldedHeaderIsA502() throws Exception {
        start(head -> ScriptedBackend.Answer.thenClose("HTTP/1.1 200 OK\r\nX-Long: one\r\n two\r\nContent-Length: 0\r\n\r\n"));
        assertNotRetryable502(get("/folded"));
    }

    @Test
    void conflictingContentLengthsAreA502() throws Exception {
        start(head -> ScriptedBackend.Answer.thenClose("HTTP/1.1 200 OK\r\nContent-Length: 2\r\nContent-Length: 3\r\n\r\nabc"));
        assertNotRetryable502(get("/smuggle"));
    }

    @Test
    void aHeadBeyond64KiBIsA502() throws Exception {
        start(head -> ScriptedBackend.Answer.thenClose("HTTP/1.1 200 OK\r\nX-Big: " + "b".repeat(70_000)
                + "\r\nContent-Length: 0\r\n\r\n"));
        assertNotRetryable502(get("/huge-head"));
    }

    @Test
    void aProtocolSwitchNobodyAskedForIsA502() throws Exception {
        start(head -> ScriptedBackend.Answer.thenClose("HTTP/1.1 101 Switching Protocols\r\nUpgrade: h2c\r\n\r\n"));
        assertNotRetryable502(get("/unasked"));
    }

    @Test
    void aNonNumericContentLengthIsA502() throws Exception {
        start(head -> ScriptedBackend.Answer.thenClose("HTTP/1.1 200 OK\r\nContent-Length: 12abc\r\n\r\nabc"));
        assertNotRetryable502(get("/bad-length"));
    }

    @Test
    void aBackendClosingBeforeItsDeclaredLengthCutsTheClientConnection() throws Exception {
        start(head -> ScriptedBackend.Answer.thenClose("HTTP/1.1 200 OK\r\nContent-Length: 100\r\n\r\nonly ten b"));
        // Whether any of it was flushed before the cut is Helidon's business; a complete answer is not.
        String received = rawGet("/short");
        int bodyStart = received.indexOf("\r\n\r\n");
        assertThat(bodyStart < 0 || received.length() - bodyStart - 4 < 100, is(true));
        assertThrows(IOException.class, () -> get("/short"));
    }

    @Test
    void aBrokenChunkSizeMidBodyCutsTheClientConnectionWithoutAnEnding() throws Exception {
        start(head -> ScriptedBackend.Answer.thenClose("HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n"
                + "5\r\nhello\r\nzz\r\nrest\r\n0\r\n\r\n"));
        // Whether "hello" was flushed before the cut is Helidon's business; an ending is not.
        String received = rawGet("/broken-chunks");
        assertThat(received, not(containsString("\r\n0\r\n\r\n")));
    }

    @Test
    void anAnswerToHeadCarriesNoBodyAndTheConnectionStaysUsable() throws Exception {
        start(head -> head.startsWith("HEAD")
                ? ScriptedBackend.Answer.keep("HTTP/1.1 200 OK\r\nContent-Length: 5\r\n\r\n")
                : ScriptedBackend.Answer.keep("HTTP/1.1 200 OK\r\nContent-Length: 5\r\n\r\nhello"));
        HttpResponse<String> head = CLIENT.send(HttpRequest.newBuilder(
                        java.net.URI.create("http://127.0.0.1:" + router.port() + "/h"))
                .method("HEAD", HttpRequest.BodyPublishers.noBody()).build(), HttpResponse.BodyHandlers.ofString());
        assertThat(head.statusCode(), is(200));
        assertThat(head.body(), is(""));
        assertThat(get("/h").body(), is("hello"));
        assertThat(backend.connections.get(), is(1));
    }

    @Test
    void theRequestReachesTheBackendAsHttp11WithItsTargetAndForwardedHeaders() throws Exception {
        start(head -> ScriptedBackend.Answer.keep("HTTP/1.1 204 No Content\r\n\r\n"));
        HttpResponse<String> response = get("/a;v=1/b%20c?x=1&y=%2F");
        assertThat(response.statusCode(), is(204));
        String received = backend.requests.getFirst();
        assertThat(received, containsString("GET /a;v=1/b%20c?x=1&y=%2F HTTP/1.1\r\n"));
        assertThat(received.toLowerCase(), containsString("x-forwarded-for: 127.0.0.1\r\n"));
        assertThat(received.toLowerCase(), not(containsString("transfer-encoding")));
    }

    private void assertNotRetryable502(HttpResponse<String> response) {
        assertThat(response.statusCode(), is(502));
        assertThat(response.body(), containsString("\"retryable\":false"));
    }

    // Reads what the router sends until it closes the connection: a cut answer must end that way.
    private String rawGet(String path) throws IOException {
        try (Socket socket = new Socket("127.0.0.1", router.port())) {
            socket.setSoTimeout(10_000);
            socket.getOutputStream().write(("GET " + path + " HTTP/1.1\r\nHost: t\r\n\r\n").getBytes(StandardCharsets.US_ASCII));
            return new String(socket.getInputStream().readAllBytes(), StandardCharsets.ISO_8859_1);
        }
    }
}
