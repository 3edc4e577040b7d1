package io.insika.router.server.proxy;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

import io.insika.router.api.Backend;
import io.insika.router.server.RouterServer;
import io.insika.router.server.backends.BackendLimits;
import io.insika.router.server.testing.Eventually;
import io.insika.router.server.testing.Http1Messages;
import io.insika.router.server.testing.RawHttp;
import io.insika.router.server.testing.Scrape;
import io.insika.router.server.testing.TestServers;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import io.insika.router.server.testing.TestProxySettings;

import static org.hamcrest.MatcherAssert.assertThat;
import static org.hamcrest.Matchers.containsString;
import static org.hamcrest.Matchers.is;
import static org.hamcrest.Matchers.not;
import static org.hamcrest.Matchers.startsWith;
import static org.junit.jupiter.api.Assertions.assertThrows;

/**
 * The edge rules that need more than one request and one answer to show: the router's own
 * answers close what they cannot finish reading, a target places alike in every form, bodies
 * reach the client as they arrive, the backend timeout measures silence and not age, a client
 * that leaves mid-upload frees its backend at once.
 */
class EdgeSafetyTest {

    private static final String SMUGGLED = "GET /slow-smuggled HTTP/1.1\r\nHost: x\r\n\r\n";

    @RegisterExtension
    final Routers routers = new Routers();
    private RouterServer router;
    private AutoCloseable backend;

    @AfterEach
    void stop() throws Exception {
        if (router != null) {
            router.close();
        }
        if (backend != null) {
            backend.close();
        }
    }

    @Test
    void theRetryEnvelopeToAnUnreadBodyClosesTheConnectionSoTheBodyIsNeverARequest() throws Exception {
        int deadPort;
        try (ServerSocket gone = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            deadPort = gone.getLocalPort();
        }
        router = TestServers.start(RouterFixture.defaultRoutes(),
                RouterFixture.ketamaPool(List.of(Backend.parse("http://127.0.0.1:" + deadPort))), TestProxySettings.DEFAULTS);
        String body = "x".repeat(100_000) + SMUGGLED; // longer than the peek, so part of it is never read
        String answer = rawExchange(router.port(), "POST /studio/up HTTP/1.1\r\nHost: x\r\nContent-Length: "
                + body.length() + "\r\n\r\n" + body);
        assertThat(answer, startsWith("HTTP/1.1 503"));
        assertThat(answer, containsString("Connection: close"));
        assertThat("one answer, and then the close", answer.indexOf("HTTP/1.1", 1), is(-1));
    }

    @Test
    void aSessionRefusedForAFullOwnerHasItsUnreadBodyCutOffNeverReadAsARequest() throws Exception {
        RouterFixture fixture = routers.withBackends(1, TestProxySettings.builder()
                .capacityEverywhere(new BackendLimits(1, 0)).build());
        TestBackend owner = fixture.backends.getFirst();
        java.util.concurrent.CompletableFuture<java.net.http.HttpResponse<String>> held = RouterFixture.CLIENT.sendAsync(
                BackendSlotsTest.keyed(fixture, "alice", true), java.net.http.HttpResponse.BodyHandlers.ofString());
        Eventually.await(Duration.ofSeconds(5), () -> owner.holding.get() == 1, () -> "the first never arrived");

        // the key is known where the JSON document ends, so the peek stops near there: the rest of the
        // body, a smuggled request at its end, is never read
        String body = "{\"user\":\"alice\"}" + " ".repeat(100_000) + SMUGGLED;
        String answer = rawExchange(fixture.port(), "POST /v1/responses HTTP/1.1\r\nHost: x\r\n"
                + "Content-Type: application/json\r\nContent-Length: " + body.length() + "\r\n\r\n" + body);

        assertThat(answer, startsWith("HTTP/1.1 503"));
        assertThat(answer, containsString("Insika::Router::BackendFull"));
        assertThat(answer, containsString("Connection: close"));
        assertThat("one answer, and then the close", answer.indexOf("HTTP/1.1", 1), is(-1));
        owner.holdRelease.release();
        assertThat(held.get().statusCode(), is(200));
        assertThat("the held request only: nothing of the refused body reached the backend", owner.hits.get(), is(1));
    }

    @Test
    void aRedispatchedBodyReachesTheNextBackendWholeAndOnceAsOneRequest() throws Exception {
        int deadPort;
        try (ServerSocket gone = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            deadPort = gone.getLocalPort();
        }
        RecordingBackend live = RecordingBackend.start();
        backend = live;
        router = TestServers.start(RouterFixture.defaultRoutes(), RouterFixture.ketamaPool(
                List.of(Backend.parse("http://127.0.0.1:" + deadPort), live.backend())), TestProxySettings.DEFAULTS);
        String body = "y".repeat(70_000) + SMUGGLED; // past the inline limit: the upload streams
        String request = "POST /studio/upload HTTP/1.1\r\nHost: x\r\nContent-Length: " + body.length() + "\r\n";

        // round-robin over two backends: one of the two requests is placed on the dead one first
        String answers = rawExchange(router.port(), request + "\r\n" + body + request + "Connection: close\r\n\r\n"
                + body);

        assertThat(Http1Messages.responses(answers.getBytes(StandardCharsets.ISO_8859_1), true, "POST").messages()
                .stream().map(Http1Messages.Message::bodyText).toList(),
                is(List.of("POST /studio/upload", "POST /studio/upload")));
        assertThat(Scrape.of(router.adminPort()).sum("insika_router_redispatches_total"), is(1.0));
        List<Http1Messages.Message> received = live.receivedSince(List.of()).stream()
                .flatMap(bytes -> Http1Messages.requests(bytes, true).messages().stream()).toList();
        assertThat(received.stream().map(Http1Messages.Message::startLine).toList(),
                is(List.of("POST /studio/upload HTTP/1.1", "POST /studio/upload HTTP/1.1")));
        for (Http1Messages.Message message : received) {
            assertThat(message.bodyText().equals(body), is(true));
        }
    }

    @Test
    void anAbsoluteFormTargetIsPlacedOnTheSameOwnerAsTheOriginForm() throws Exception {
        RouterFixture fixture = routers.withBackends(3, TestProxySettings.DEFAULTS);
        for (String user : List.of("alice", "bob", "carol", "dave", "erin")) {
            String json = "{\"user\":\"" + user + "\"}";
            String absolute = rawExchange(fixture.port(), "POST http://elsewhere:8080/v1/responses HTTP/1.1\r\nHost: x\r\n"
                    + "Content-Type: application/json\r\nContent-Length: " + json.length() + "\r\nConnection: close\r\n\r\n"
                    + json);
            assertThat(absolute, startsWith("HTTP/1.1 200"));
            assertThat(user, absolute, containsString("X-Backend: " + fixture.backendOf(fixture.ownerOf(user)).name));
        }
    }

    @Test
    void aKnownLengthBodyTheBackendWritesSlowlyReachesTheClientAsItArrives() throws Exception {
        CountDownLatch clientSawFirstPart = new CountDownLatch(1);
        RawBackend slow = new RawBackend((in, out) -> {
            RawHttp.readHead(in);
            out.write("HTTP/1.1 200 OK\r\nContent-Length: 10\r\n\r\nhello".getBytes(StandardCharsets.US_ASCII));
            out.flush();
            clientSawFirstPart.await(10, TimeUnit.SECONDS);
            out.write("world".getBytes(StandardCharsets.US_ASCII));
            out.flush();
        });
        backend = slow;
        router = TestServers.start(RouterFixture.defaultRoutes(),
                RouterFixture.ketamaPool(List.of(slow.backend())), TestProxySettings.DEFAULTS);
        try (Socket client = new Socket("127.0.0.1", router.port())) {
            client.setSoTimeout(5_000);
            client.getOutputStream().write("GET /download HTTP/1.1\r\nHost: x\r\n\r\n".getBytes(StandardCharsets.US_ASCII));
            InputStream in = client.getInputStream();
            assertThat(RawHttp.readHead(in), containsString("Content-Length: 10"));
            assertThat(new String(in.readNBytes(5), StandardCharsets.US_ASCII), is("hello")); // before "world" was sent
            clientSawFirstPart.countDown();
            assertThat(new String(in.readNBytes(5), StandardCharsets.US_ASCII), is("world"));
        }
    }

    @Test
    void anUploadThatKeepsFlowingOutlivesTheBackendTimeout() throws Exception {
        RouterFixture fixture = routers.withBackends(1, TestProxySettings.builder().backendTimeout(Duration.ofMillis(300)).build());
        try (Socket client = new Socket("127.0.0.1", fixture.port())) {
            client.setSoTimeout(10_000);
            OutputStream out = client.getOutputStream();
            out.write("POST /studio/upload HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\n"
                    .getBytes(StandardCharsets.US_ASCII));
            byte[] piece = "x".repeat(1000).getBytes(StandardCharsets.US_ASCII);
            for (int i = 0; i < 12; i++) { // 1.2 s of upload: four backend timeouts, never silent
                out.write(("3e8\r\n").getBytes(StandardCharsets.US_ASCII));
                out.write(piece);
                out.write("\r\n".getBytes(StandardCharsets.US_ASCII));
                out.flush();
                Thread.sleep(100);
            }
            out.write("0\r\n\r\n".getBytes(StandardCharsets.US_ASCII));
            out.flush();
            String head = RawHttp.readHead(client.getInputStream());
            assertThat(head, startsWith("HTTP/1.1 200"));
        }
        assertThat(fixture.backends.getFirst().hits.get(), is(1));
    }

    @Test
    void aClientThatLeavesMidUploadFreesItsBackendConnectionAtOnceAndNoBackendIsBlamed() throws Exception {
        RouterFixture fixture = routers.withBackends(1, TestProxySettings.builder().backendTimeout(Duration.ofSeconds(30)).build());
        try (Socket client = new Socket("127.0.0.1", fixture.port())) {
            OutputStream out = client.getOutputStream();
            out.write(("POST /studio/upload HTTP/1.1\r\nHost: x\r\nContent-Length: " + (10 << 20) + "\r\n\r\n")
                    .getBytes(StandardCharsets.US_ASCII));
            out.write(new byte[300 * 1024]); // past the inline part: streaming on its own thread
            out.flush();
            Eventually.await(Duration.ofSeconds(5),
                    () -> Scrape.of(fixture.adminPort()).sum("insika_router_backend_connections") == 1.0,
                    () -> "the upload never reached the backend");
        }
        // well within the 30 s backend timeout
        Eventually.await(Duration.ofSeconds(5),
                () -> Scrape.of(fixture.adminPort()).sum("insika_router_backend_connections") == 0.0,
                () -> Scrape.of(fixture.adminPort()).matching("insika_router_backend_connections").toString());
        assertThat(Scrape.of(fixture.adminPort()).sum("insika_router_backend_errors_total"), is(0.0));
    }

    // Writes the bytes, reads until the router closes (or 10 s pass).
    static String rawExchange(int port, String request) throws IOException {
        try (Socket socket = new Socket("127.0.0.1", port)) {
            socket.setSoTimeout(10_000);
            OutputStream out = socket.getOutputStream();
            try {
                out.write(request.getBytes(StandardCharsets.ISO_8859_1));
                out.flush();
            } catch (IOException e) {
                // the router closed before taking all of it: what it answered is still to be read
            }
            ByteArrayOutputStream all = new ByteArrayOutputStream();
            byte[] buffer = new byte[8192];
            try {
                for (int n = socket.getInputStream().read(buffer); n >= 0; n = socket.getInputStream().read(buffer)) {
                    all.write(buffer, 0, n);
                }
            } catch (SocketTimeoutException e) {
                throw new AssertionError("the router kept the connection open: " + all);
            } catch (IOException e) {
                // reset after the answer: the router closed with the client's bytes unread
            }
            return all.toString(StandardCharsets.ISO_8859_1);
        }
    }

    /** A raw backend whose behaviour the test writes, one connection at a time. */
    static final class RawBackend implements AutoCloseable {
        interface Script {
            void serve(InputStream in, OutputStream out) throws Exception;
        }

        private final ServerSocket server;

        RawBackend(Script script) throws IOException {
            this.server = new ServerSocket(0, 50, InetAddress.getLoopbackAddress());
            Thread.ofVirtual().start(() -> {
                while (!server.isClosed()) {
                    try {
                        Socket socket = server.accept();
                        Thread.ofVirtual().start(() -> {
                            try (socket) {
                                script.serve(socket.getInputStream(), socket.getOutputStream());
                            } catch (Exception e) {
                                // the router hung up
                            }
                        });
                    } catch (IOException e) {
                        return;
                    }
                }
            });
        }

        Backend backend() {
            return Backend.parse("http://127.0.0.1:" + server.getLocalPort());
        }

        @Override
        public void close() throws IOException {
            server.close();
        }
    }
}
