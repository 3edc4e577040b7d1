package io.insika.router.server.proxy;

import java.io.IOException;
import java.io.InputStream;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;

import io.insika.router.server.RouterServer;
import io.insika.router.server.ServerSettings;
import io.insika.router.server.testing.Http1Messages;
import io.insika.router.server.testing.Scrape;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import io.insika.router.server.testing.TestProxySettings;

import static org.hamcrest.MatcherAssert.assertThat;
import static org.hamcrest.Matchers.contains;
import static org.hamcrest.Matchers.containsString;
import static org.hamcrest.Matchers.is;
import static org.hamcrest.Matchers.startsWith;

/**
 * The router's own HTTP/1 framing ({@code server.lean-http1}, on by default) and its hand-over:
 * plain requests are framed by the router, and a connection's first request outside the subset
 * goes, bytes untouched, to Helidon's HTTP/1, which serves it and every later one. Whatever the
 * path, each request gets exactly its own answer. (The whole proxy suite runs on both paths, see
 * {@code TestServers}; this pins what only the lean one has.)
 */
class LeanHttp1Test {

    private TestBackend backend;
    private RouterServer router;

    @BeforeEach
    void start() {
        backend = TestBackend.start("only");
        router = RouterServer.start(new ServerSettings("127.0.0.1", 0, "127.0.0.1", 0,
                        ServerSettings.HELIDON_GRACE, Duration.ZERO, ServerSettings.DEFAULT_MAX_CONNECTIONS, true,
                        ServerSettings.DEFAULT_HEAD_TIMEOUT, ServerSettings.DEFAULT_IDLE_TIMEOUT, java.util.Optional.empty(), io.insika.router.server.proxy.Http2Settings.DEFAULTS), RouterFixture.defaultRoutes(),
                RouterFixture.ketamaPool(List.of(backend.backend())), TestProxySettings.DEFAULTS);
    }

    @AfterEach
    void stop() {
        router.close();
        backend.close();
    }

    private static String keyed(String user) {
        String body = "{\"user\":\"" + user + "\"}";
        return "POST /v1/responses HTTP/1.1\r\nHost: router.test\r\nContent-Type: application/json\r\n"
                + "Content-Length: " + body.length() + "\r\n\r\n" + body;
    }

    private static final String CHUNKED = "POST /v1/other HTTP/1.1\r\nHost: router.test\r\n"
            + "Transfer-Encoding: chunked\r\n\r\n5\r\nhello\r\n0\r\n\r\n";
    // outside the lean subset: a Connection field naming a hop-by-hop header
    private static final String HOP_BY_HOP = "POST /v1/other HTTP/1.1\r\nHost: router.test\r\n"
            + "Connection: x-hop\r\nX-Hop: 1\r\nContent-Length: 5\r\n\r\nhello";

    private double handovers() {
        return Scrape.of(router.adminPort()).sum("insika_router_http1_handovers_total");
    }

    // Writes the requests in one go, then reads answers until the router closes or `count` came.
    private List<Http1Messages.Message> exchange(String requests, int count, String method) throws IOException {
        try (Socket socket = new Socket("127.0.0.1", router.port())) {
            socket.setSoTimeout(10_000);
            socket.getOutputStream().write(requests.getBytes(StandardCharsets.ISO_8859_1));
            socket.shutdownOutput();
            byte[] received = socket.getInputStream().readAllBytes();
            Http1Messages.Reading reading = Http1Messages.responses(received, true, method);
            assertThat(reading.describe(), reading.cleanEnd(), is(true));
            assertThat(reading.describe(), reading.messages().size(), is(count));
            return reading.messages();
        }
    }

    @Test
    void plainRequestsOnOneConnectionAreFramedByTheRouterEachGettingItsOwnAnswer() throws IOException {
        List<Http1Messages.Message> answers = exchange(keyed("a") + keyed("bb") + keyed("ccc"), 3, "POST");

        for (int i = 0; i < 3; i++) {
            assertThat(answers.get(i).startLine(), is("HTTP/1.1 200 OK"));
            assertThat(answers.get(i).values("x-backend"), contains("only"));
        }
        assertThat("each body reached the backend whole", new String(answers.get(2).body(), StandardCharsets.UTF_8),
                startsWith("only 14 "));
        assertThat(backend.hits.get(), is(3));
        assertThat(handovers(), is(0.0));
    }

    @Test
    void aRequestOutsideTheSubsetHandsTheConnectionToHelidonWhichServesItAndTheRest() throws IOException {
        List<Http1Messages.Message> answers = exchange(keyed("a") + HOP_BY_HOP + keyed("b"), 3, "POST");

        assertThat(new String(answers.get(0).body(), StandardCharsets.UTF_8), startsWith("only 12 "));
        assertThat("Helidon read the body the router left untouched",
                new String(answers.get(1).body(), StandardCharsets.UTF_8), startsWith("only 5 "));
        assertThat(new String(answers.get(2).body(), StandardCharsets.UTF_8), startsWith("only 12 "));
        assertThat(backend.hits.get(), is(3));
        assertThat(handovers(), is(1.0));
    }

    @Test
    void aChunkedRequestIsTheRoutersToFrame() throws IOException {
        List<Http1Messages.Message> answers = exchange(keyed("a") + CHUNKED + keyed("b"), 3, "POST");

        assertThat(new String(answers.get(1).body(), StandardCharsets.UTF_8), startsWith("only 5 "));
        assertThat(new String(answers.get(2).body(), StandardCharsets.UTF_8), startsWith("only 12 "));
        assertThat(handovers(), is(0.0));
    }

    @Test
    void whatHelidonRefusesItAnswersAfterTheHandOver() throws IOException {
        List<Http1Messages.Message> answers = exchange(keyed("a")
                + "GET /a HTTP/1.1\r\nHost: router.test\r\nX-Bad: one\u0001two\r\n\r\n" + keyed("never"), 2, "POST");

        assertThat(answers.get(0).startLine(), is("HTTP/1.1 200 OK"));
        assertThat(answers.get(1).startLine(), startsWith("HTTP/1.1 400"));
        assertThat("nothing after the refused head was read as a request", backend.hits.get(), is(1));
        assertThat(handovers(), is(1.0));
    }

    @Test
    void upIsHelidonsToAnswer() throws IOException {
        List<Http1Messages.Message> answers = exchange("GET /up HTTP/1.1\r\nHost: router.test\r\n\r\n", 1, "GET");

        assertThat(new String(answers.getFirst().body(), StandardCharsets.US_ASCII), is("OK"));
        assertThat(backend.hits.get(), is(0));
    }

    @Test
    void upSpeltWithAnEscapeIsHelidonsToAnswerToo() throws IOException {
        // Helidon's routing matches the decoded path; proxying it would answer it differently
        List<Http1Messages.Message> answers = exchange("GET /%75p HTTP/1.1\r\nHost: router.test\r\n\r\n", 1, "GET");

        assertThat(new String(answers.getFirst().body(), StandardCharsets.US_ASCII), is("OK"));
        assertThat(backend.hits.get(), is(0));
    }

    @Test
    void connectionCloseIsAnsweredThenTheConnectionEndsAndNothingAfterItIsRead() throws IOException {
        String closing = keyed("a").replace("Host: router.test\r\n", "Host: router.test\r\nConnection: close\r\n");
        List<Http1Messages.Message> answers = exchange(closing + keyed("never"), 1, "POST");

        assertThat(answers.getFirst().values("connection"), contains("close"));
        assertThat(backend.hits.get(), is(1));
    }

    @Test
    void aClientThatLeavesMidBodyFreesTheBackendAndNoAnswerIsFaked() throws IOException {
        String cut = keyed("a").replace("Content-Length: 12", "Content-Length: 99");
        try (Socket socket = new Socket("127.0.0.1", router.port())) {
            socket.setSoTimeout(10_000);
            socket.getOutputStream().write(cut.getBytes(StandardCharsets.ISO_8859_1));
            socket.shutdownOutput();
            InputStream in = socket.getInputStream();
            String received = new String(in.readAllBytes(), StandardCharsets.ISO_8859_1);
            assertThat("nothing but what a short body may get: no 200", received.contains(" 200 "), is(false));
        }
        assertThat(handovers(), is(0.0));
    }

    @Test
    void aHeadAnswerHasTheLengthButNoBodySoTheNextAnswerFollowsCleanly() throws IOException {
        // the echo's answer: "only 0 " and a SHA-256 in hex, 71 bytes
        String head = "HEAD /echo HTTP/1.1\r\nHost: router.test\r\n\r\n";
        List<Http1Messages.Message> answers = exchange(head + head, 2, "HEAD");

        for (Http1Messages.Message answer : answers) {
            assertThat(answer.startLine(), is("HTTP/1.1 200 OK"));
            assertThat(answer.values("content-length"), contains("71"));
            assertThat(answer.body().length, is(0));
        }
        assertThat(handovers(), is(0.0));
    }

    @Test
    void aStreamedAnswerIsChunkedAndEndsWithItsLastChunk() throws IOException {
        backend.sseProceed.release(4); // each event at once: this test reads the stream only at its end
        List<Http1Messages.Message> answers = exchange("GET /sse HTTP/1.1\r\nHost: router.test\r\n\r\n", 1, "GET");

        assertThat(answers.getFirst().values("transfer-encoding"), contains("chunked"));
        assertThat(new String(answers.getFirst().body(), StandardCharsets.UTF_8), containsString("data: event-4"));
    }

    @Test
    void aLongHeadArrivingInPiecesIsStillTheRoutersToFrame() throws Exception {
        String head = keyed("a").replace("Host: router.test\r\n", "Host: router.test\r\nCookie: " + "c".repeat(3000) + "\r\n");
        byte[] bytes = head.getBytes(StandardCharsets.ISO_8859_1);
        try (Socket socket = new Socket("127.0.0.1", router.port())) {
            socket.setSoTimeout(10_000);
            for (int at = 0; at < bytes.length; at += 200) {
                socket.getOutputStream().write(bytes, at, Math.min(200, bytes.length - at));
                socket.getOutputStream().flush();
                Thread.sleep(5);
            }
            socket.shutdownOutput();
            Http1Messages.Reading reading = Http1Messages.responses(socket.getInputStream().readAllBytes(), true, "POST");
            assertThat(reading.describe(), reading.messages().size(), is(1));
            assertThat(reading.messages().getFirst().startLine(), is("HTTP/1.1 200 OK"));
        }
        assertThat(backend.lastHeaders.get("cookie"), contains("c".repeat(3000)));
        assertThat(handovers(), is(0.0));
    }

    @Test
    void aHeadOverEightKibIsHelidonsToRead() throws IOException {
        String head = keyed("a").replace("Host: router.test\r\n", "Host: router.test\r\nCookie: " + "c".repeat(9000) + "\r\n");
        List<Http1Messages.Message> answers = exchange(head + keyed("b"), 2, "POST");

        assertThat(answers.get(0).startLine(), is("HTTP/1.1 200 OK"));
        assertThat(answers.get(1).startLine(), is("HTTP/1.1 200 OK"));
        assertThat(handovers(), is(1.0));
    }
}
