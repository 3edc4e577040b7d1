package io.insika.router.server.proxy;

import java.io.IOException;
import java.io.OutputStream;
import java.net.Socket;
import java.net.URI;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.Set;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

import io.insika.router.api.Backend;
import io.insika.router.api.PluginOptions;
import io.insika.router.server.RouterServer;
import io.insika.router.server.backends.BackendLimits;
import io.insika.router.server.routing.DefaultRoutes;
import io.insika.router.server.routing.ExtractorSpec;
import io.insika.router.server.routing.RouteSpec;
import io.insika.router.server.routing.RouteTable;
import io.insika.router.server.testing.FixturePlugins;
import io.insika.router.server.testing.RawHttp;
import io.insika.router.server.testing.TestServers;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import io.insika.router.server.testing.TestProxySettings;

import static org.hamcrest.MatcherAssert.assertThat;
import static org.hamcrest.Matchers.containsString;
import static org.hamcrest.Matchers.endsWith;
import static org.hamcrest.Matchers.is;
import static org.hamcrest.Matchers.not;
import static org.hamcrest.Matchers.startsWith;

/**
 * A WebSocket upgrade (Socket.IO's, after its polling phase) reaches the session's owner and the
 * two connections are joined byte for byte, longer than the backend timeout allows a silence.
 */
@Timeout(60)
class WebSocketTunnelTest {

    private static final String UPGRADE = "GET /socket.io/?EIO=4&transport=websocket&stickyId=%s HTTP/1.1\r\n"
            + "Host: router\r\nConnection: Upgrade\r\nUpgrade: websocket\r\n"
            + "Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n\r\n";

    private final List<EchoBackend> backends = new ArrayList<>();
    private RouterServer router;

    @AfterEach
    void stop() {
        if (router != null) {
            router.close();
        }
        backends.forEach(EchoBackend::close);
    }

    private void start(int count, ProxySettings settings) throws IOException {
        for (int i = 0; i < count; i++) {
            backends.add(new EchoBackend("engine-" + i));
        }
        List<RouteSpec> specs = new ArrayList<>(DefaultRoutes.specs());
        specs.add(new RouteSpec(Set.of("GET", "POST"), "/socket.io/",
                List.of(new ExtractorSpec("query", PluginOptions.of("routes[4].keys[0]", java.util.Map.of("name", "stickyId"))))));
        router = TestServers.start(RouteTable.build(specs, FixturePlugins.builtIn()),
                RouterFixture.ketamaPool(backends.stream().map(EchoBackend::backend).toList()), settings);
    }

    @Test
    void theUpgradeReachesTheKeysOwnerAndBytesFlowBothWaysUntouched() throws Exception {
        start(3, TestProxySettings.DEFAULTS);
        byte[] payload = new byte[256 * 1024];
        new Random(7).nextBytes(payload);
        for (String sticky : List.of("alpha", "bravo", "charlie", "delta")) {
            try (Socket socket = upgrade(sticky)) {
                String head = RawHttp.readHead(socket.getInputStream());
                assertThat(head, startsWith("HTTP/1.1 101"));
                assertThat(head.toLowerCase(), containsString("upgrade: websocket"));
                assertThat(head, containsString("\r\nX-Request-Id: "));
                String greeting = new String(socket.getInputStream().readNBytes(8), StandardCharsets.US_ASCII);
                assertThat(greeting, startsWith("engine-"));

                // the owner the router's own placement names is the one that answered
                Backend owner = ownerOf(sticky);
                assertThat(greeting, is(backendFor(owner).name));

                OutputStream out = socket.getOutputStream();
                Thread.ofVirtual().start(() -> {
                    try {
                        out.write(payload);
                        out.flush();
                    } catch (IOException ignored) {
                        // the read below fails the test
                    }
                });
                byte[] echoed = socket.getInputStream().readNBytes(payload.length);
                assertThat(java.util.Arrays.equals(echoed, payload), is(true));
            }
        }
        for (EchoBackend backend : backends) {
            for (String request : backend.requests) {
                assertThat(request, containsString("Upgrade: websocket"));
                assertThat(request.toLowerCase(), containsString("x-forwarded-for: 127.0.0.1"));
                assertThat(request, containsString("X-Request-Id: "));
            }
        }
    }

    @Test
    void aTunnelIsAccessLoggedWhenItCloses() throws Exception {
        java.io.ByteArrayOutputStream log = new java.io.ByteArrayOutputStream();
        start(2, TestProxySettings.builder().accessLog(log).build());
        try (Socket socket = upgrade("logged")) {
            assertThat(RawHttp.readHead(socket.getInputStream()), startsWith("HTTP/1.1 101"));
            socket.getInputStream().readNBytes(8);
            socket.getOutputStream().write("ping".getBytes(StandardCharsets.US_ASCII));
            assertThat(new String(socket.getInputStream().readNBytes(4), StandardCharsets.US_ASCII), is("ping"));
            assertThat("nothing logged while the tunnel is open", log.size(), is(0));
        }
        io.insika.router.server.testing.Eventually.await(Duration.ofSeconds(10), () -> log.size() > 0,
                () -> "no access line after the tunnel closed");
        String line = log.toString(StandardCharsets.UTF_8).strip();
        assertThat(line, containsString(" method=GET path=/socket.io/ status=101 bytes=12 "));
        assertThat(line, containsString(" backend=" + ownerOf("logged").id() + " placement=key key="
                + SessionKeyDigest.of("logged") + " error=-"));
    }

    // RFC 6455 4.2.1: the token is compared case-insensitively; Helidon looks it up as written
    @Test
    void anUpgradeSpelledWebSocketIsTunnelledToo() throws Exception {
        start(2, TestProxySettings.DEFAULTS);
        for (String spelling : List.of("WebSocket", "Websocket", "WEBSOCKET")) {
            try (Socket socket = new Socket("127.0.0.1", router.port())) {
                socket.setSoTimeout(20_000);
                socket.getOutputStream().write(UPGRADE.formatted("spelt").replace("Upgrade: websocket", "Upgrade: " + spelling)
                        .getBytes(StandardCharsets.US_ASCII));
                assertThat(spelling, RawHttp.readHead(socket.getInputStream()), startsWith("HTTP/1.1 101"));
                String greeting = new String(socket.getInputStream().readNBytes(8), StandardCharsets.US_ASCII);
                assertThat(greeting, is(backendFor(ownerOf("spelt")).name));
            }
        }
        for (EchoBackend backend : backends) {
            for (String request : backend.requests) {
                assertThat("the client's spelling goes to the backend", request,
                        org.hamcrest.Matchers.anyOf(containsString("Upgrade: WebSocket"),
                                containsString("Upgrade: Websocket"), containsString("Upgrade: WEBSOCKET")));
            }
        }
    }

    @Test
    void aQuietTunnelOutlivesTheBackendTimeout() throws Exception {
        start(1, TestProxySettings.builder().backendTimeout(Duration.ofMillis(200)).build());
        try (Socket socket = upgrade("quiet")) {
            assertThat(RawHttp.readHead(socket.getInputStream()), startsWith("HTTP/1.1 101"));
            socket.getInputStream().readNBytes(8);
            Thread.sleep(1_000); // five backend timeouts of silence
            socket.getOutputStream().write("still here".getBytes(StandardCharsets.US_ASCII));
            assertThat(new String(socket.getInputStream().readNBytes(10), StandardCharsets.US_ASCII), is("still here"));
        }
    }

    @Test
    void theClientLeavingClosesTheBackendSide() throws Exception {
        start(1, TestProxySettings.DEFAULTS);
        try (Socket socket = upgrade("leaving")) {
            assertThat(RawHttp.readHead(socket.getInputStream()), startsWith("HTTP/1.1 101"));
            socket.getInputStream().readNBytes(8);
        }
        assertThat(backends.getFirst().closedByPeer.await(10, TimeUnit.SECONDS), is(true));
    }

    @Test
    void theBackendLeavingClosesTheClientConnection() throws Exception {
        start(1, TestProxySettings.DEFAULTS);
        try (Socket socket = upgrade("hangup")) {
            assertThat(RawHttp.readHead(socket.getInputStream()), startsWith("HTTP/1.1 101"));
            socket.getInputStream().readNBytes(8);
            socket.getOutputStream().write("bye".getBytes(StandardCharsets.US_ASCII)); // the backend hangs up on "bye"
            socket.setSoTimeout(10_000);
            byte[] rest = socket.getInputStream().readAllBytes(); // returns only when the router closes
            assertThat(new String(rest, StandardCharsets.US_ASCII), is("bye"));
        }
    }

    @Test
    void anOwnerThatRefusesTheUpgradeHasItsAnswerRelayedAndTheConnectionClosed() throws Exception {
        start(1, TestProxySettings.DEFAULTS);
        backends.getFirst().refuse = true;
        try (Socket socket = upgrade("refused")) {
            socket.setSoTimeout(10_000);
            String all = new String(socket.getInputStream().readAllBytes(), StandardCharsets.ISO_8859_1);
            assertThat(all, startsWith("HTTP/1.1 400"));
            assertThat(all, containsString("no websocket here"));
            assertThat(all, containsString("\r\nX-Request-Id: "));
            assertThat(all.toLowerCase(), not(containsString("upgrade: websocket")));
        }
    }

    @Test
    void anUpgradeRefusedWith204Or304IsAnsweredOnceAtOnceAndTheConnectionClosed() throws Exception {
        start(1, TestProxySettings.DEFAULTS);
        for (String refusal : List.of("HTTP/1.1 204 No Content\r\n\r\n",
                "HTTP/1.1 304 Not Modified\r\nContent-Length: 7\r\n\r\n")) {
            backends.getFirst().refusal = refusal;
            try (Socket socket = upgrade("refused")) {
                socket.setSoTimeout(5_000); // the backend never closes: a close-delimited read would wait this out
                String all = new String(socket.getInputStream().readAllBytes(), StandardCharsets.ISO_8859_1);
                assertThat(all, startsWith(refusal.substring(0, 12)));
                assertThat("one answer", all.indexOf("HTTP/1.1", 1), is(-1));
                assertThat(all, endsWith("\r\n\r\n"));
            }
        }
    }

    @Test
    void theClientsEndOfStreamReachesTheBackendAndTheBackendsLastWordsStillReachTheClient() throws Exception {
        start(1, TestProxySettings.DEFAULTS);
        backends.getFirst().drainAfterEndOfStream = true;
        try (Socket socket = upgrade("half-close")) {
            socket.setSoTimeout(10_000);
            assertThat(RawHttp.readHead(socket.getInputStream()), startsWith("HTTP/1.1 101"));
            socket.getInputStream().readNBytes(8); // the greeting, the backend's name
            socket.getOutputStream().write("hi".getBytes(StandardCharsets.US_ASCII));
            assertThat(new String(socket.getInputStream().readNBytes(2), StandardCharsets.US_ASCII), is("hi"));
            socket.shutdownOutput();
            byte[] rest = socket.getInputStream().readAllBytes();
            assertThat(new String(rest, StandardCharsets.US_ASCII), is("drained"));
        }
    }

    @Test
    void anUnreachableOwnerGetsTheRetryEnvelope() throws Exception {
        start(1, TestProxySettings.DEFAULTS);
        backends.getFirst().close();
        try (Socket socket = upgrade("down")) {
            socket.setSoTimeout(10_000);
            String head = RawHttp.readHead(socket.getInputStream());
            assertThat(head, startsWith("HTTP/1.1 503"));
            assertThat(head, containsString("Retry-After: 1"));
        }
        // the tunnel declined and the proxy answered: one request, counted once
        io.insika.router.server.testing.Scrape scrape = io.insika.router.server.testing.Scrape.of(router.adminPort());
        assertThat(scrape.sum("insika_router_requests_total"), is(1.0));
        assertThat(scrape.sum("insika_router_backend_errors_total", "error", "unreachable"), is(1.0));
    }

    @Test
    void pastItsMaxTunnelsAnOwnerRefusesANewTunnelWithTheEnvelopeUntilOneCloses() throws Exception {
        start(2, TestProxySettings.builder().capacityEverywhere(new BackendLimits(0, 1)).build());
        try (Socket first = upgrade("tunnelled")) {
            assertThat(RawHttp.readHead(first.getInputStream()), startsWith("HTTP/1.1 101"));
            first.getInputStream().readNBytes(8);

            try (Socket second = upgrade("tunnelled")) {
                String answer = new String(second.getInputStream().readAllBytes(), StandardCharsets.ISO_8859_1);
                assertThat(answer, startsWith("HTTP/1.1 503"));
                assertThat(answer, containsString("Retry-After: 1"));
                assertThat(answer, containsString("Insika::Router::BackendFull"));
                assertThat("the router's own answer on the tunnel's path carries the request id", answer,
                        containsString("\r\nX-Request-Id: "));
            }
            assertThat("the refused upgrade reached no backend",
                    backends.stream().mapToInt(b -> b.requests.size()).sum(), is(1));
            // plain requests take request slots, not tunnel slots
            HttpResponse<String> plain = RouterFixture.CLIENT.send(HttpRequest.newBuilder(
                    URI.create("http://127.0.0.1:" + router.port() + "/studio/x")).build(),
                    HttpResponse.BodyHandlers.ofString());
            assertThat(plain.statusCode(), is(not(503)));
        }
        io.insika.router.server.testing.Eventually.await(Duration.ofSeconds(10),
                () -> io.insika.router.server.testing.Scrape.of(router.adminPort())
                        .sum("insika_router_backend_in_flight", "kind", "tunnels") == 0.0,
                () -> "the closed tunnel kept its slot");
        try (Socket third = upgrade("tunnelled")) {
            assertThat(RawHttp.readHead(third.getInputStream()), startsWith("HTTP/1.1 101"));
        }
        assertThat(io.insika.router.server.testing.Scrape.of(router.adminPort()).sum(
                "insika_router_backend_refusals_total", "backend", ownerOf("tunnelled").id(), "reason", "tunnels-full"),
                is(1.0));
    }

    @Test
    void aStandardWebSocketClientTalksToItsOwnerThroughTheRouter() throws Exception {
        start(2, TestProxySettings.DEFAULTS);
        backends.forEach(it -> it.speakWebSocket = true);
        List<String> received = new CopyOnWriteArrayList<>();
        CountDownLatch replies = new CountDownLatch(3);
        java.net.http.WebSocket socket = RouterFixture.CLIENT.newWebSocketBuilder()
                .buildAsync(java.net.URI.create("ws://127.0.0.1:" + router.port()
                        + "/socket.io/?EIO=4&transport=websocket&stickyId=jdk"), new java.net.http.WebSocket.Listener() {
                    @Override
                    public java.util.concurrent.CompletionStage<?> onText(java.net.http.WebSocket ws, CharSequence data,
                                                                          boolean last) {
                        received.add(data.toString());
                        replies.countDown();
                        ws.request(1);
                        return null;
                    }
                }).get(10, TimeUnit.SECONDS);
        for (String message : List.of("one", "two", "three")) {
            socket.sendText(message, true).get(10, TimeUnit.SECONDS);
        }
        assertThat(replies.await(10, TimeUnit.SECONDS), is(true));
        String owner = backendFor(ownerOf("jdk")).name;
        assertThat(received, is(List.of(owner + ":one", owner + ":two", owner + ":three")));
        socket.sendClose(java.net.http.WebSocket.NORMAL_CLOSURE, "done").get(10, TimeUnit.SECONDS);
    }

    private Socket upgrade(String sticky) throws IOException {
        Socket socket = new Socket("127.0.0.1", router.port());
        socket.setSoTimeout(20_000);
        socket.getOutputStream().write(UPGRADE.formatted(sticky).getBytes(StandardCharsets.US_ASCII));
        return socket;
    }

    private Backend ownerOf(String key) {
        return RouterFixture.ketamaPool(backends.stream().map(EchoBackend::backend).toList()).snapshot()
                .owner(key).orElseThrow();
    }

    private EchoBackend backendFor(Backend backend) {
        return backends.stream().filter(it -> it.backend().id().equals(backend.id())).findFirst().orElseThrow();
    }
}
