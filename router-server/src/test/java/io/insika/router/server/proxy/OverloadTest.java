package io.insika.router.server.proxy;

import java.io.IOException;
import java.io.OutputStream;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;

import io.insika.router.server.RouterServer;
import io.insika.router.server.routing.BackendPool;
import io.insika.router.server.testing.Eventually;
import io.insika.router.server.testing.RawHttp;
import io.insika.router.server.testing.Scrape;
import io.insika.router.server.testing.TestServers;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import io.insika.router.server.testing.TestProxySettings;

import static io.insika.router.server.proxy.RouterFixture.CLIENT;
import static org.hamcrest.MatcherAssert.assertThat;
import static org.hamcrest.Matchers.containsString;
import static org.hamcrest.Matchers.is;
import static org.hamcrest.Matchers.startsWith;
import static org.junit.jupiter.api.Assertions.assertThrows;

/**
 * A full router answers honestly and at once: past {@code max-requests} in flight, and when key
 * peeks have used up their budget, a request gets the retry envelope before any backend sees
 * it, never a hang, never a placement without its key; {@code /up} and small requests are
 * served throughout.
 */
class OverloadTest {

    @RegisterExtension
    final Routers routers = new Routers();

    @Test
    void pastMaxRequestsInFlightANewRequestGetsTheEnvelopeAtOnceAndUpStillAnswers() throws Exception {
        RouterFixture router = routers.withBackends(1, TestProxySettings.builder().limits(2, 1 << 20).build());
        List<CompletableFuture<HttpResponse<String>>> slow = new ArrayList<>();
        for (int i = 0; i < 2; i++) { // each holds its slot for 5 s
            slow.add(CLIENT.sendAsync(HttpRequest.newBuilder(router.uri("/silent")).build(),
                    HttpResponse.BodyHandlers.ofString()));
        }
        Eventually.await(Duration.ofSeconds(5), () -> router.backends.getFirst().hits.get() == 2,
                () -> "the slow requests never reached the backend");

        HttpResponse<String> refused = CLIENT.send(HttpRequest.newBuilder(router.uri("/studio/x")).build(),
                HttpResponse.BodyHandlers.ofString());
        assertThat(refused.statusCode(), is(503));
        assertThat(refused.headers().firstValue("retry-after"), is(java.util.Optional.of("1")));
        assertThat(refused.body(), containsString("Insika::Router::Overloaded"));
        assertThat(router.backends.getFirst().hits.get(), is(2));
        HttpResponse<String> up = CLIENT.send(HttpRequest.newBuilder(router.uri("/up")).build(),
                HttpResponse.BodyHandlers.ofString());
        assertThat(up.statusCode(), is(200));
        assertThat(Scrape.of(router.adminPort()).sum("insika_router_overload_refusals_total"), is(1.0));

        for (CompletableFuture<HttpResponse<String>> request : slow) {
            assertThat(request.get().statusCode(), is(200)); // the slots come back
        }
        HttpResponse<String> again = CLIENT.send(HttpRequest.newBuilder(router.uri("/studio/x")).build(),
                HttpResponse.BodyHandlers.ofString());
        assertThat(again.statusCode(), is(200));
    }

    @Test
    void pastMaxConnectionsANewClientIsAnsweredAtOnceUpWithOkAndAnyOtherWithTheEnvelope() throws Exception {
        try (TestBackend backend = TestBackend.start("only");
             RouterServer server = RouterServer.start(TestServers.settings(Duration.ZERO, Duration.ZERO, 2),
                     RouterFixture.defaultRoutes(), RouterFixture.ketamaPool(List.of(backend.backend())),
                     TestProxySettings.DEFAULTS)) {
            Socket first = connected(server.port());
            try (Socket second = connected(server.port())) {
                String up = overLimit(server.port(), UP);
                String keyed = overLimit(server.port(), "GET /studio/x HTTP/1.1\r\nHost: x\r\n\r\n");

                assertThat(up, startsWith("HTTP/1.1 200"));
                assertThat(up, containsString("Connection: close\r\n"));
                assertThat(keyed, startsWith("HTTP/1.1 503"));
                assertThat(keyed, containsString("Retry-After: 1\r\n"));
                assertThat(keyed, containsString("Insika::Router::Overloaded"));
                assertThat(Scrape.of(server.adminPort()).sum("insika_router_client_connections_refused_total"), is(2.0));
                assertThat("readiness says the port is full", readiness(server.adminPort()), is(503));

                first.close();
                Eventually.await(Duration.ofSeconds(5), () -> readiness(server.adminPort()) == 200,
                        () -> "readiness " + readiness(server.adminPort()));
                try (Socket next = connected(server.port())) {
                    assertThat(next.isConnected(), is(true));
                }
            }
        }
    }

    @Test
    void uploadsTrickledAtMaxRequestsLoseTheirSlotsToTheMinimumRate() throws Exception {
        // each pause is under client-body-timeout, so only the rate floor can end them
        RouterFixture router = routers.withBackends(1, TestProxySettings.builder().limits(4, 1 << 20).clientBodyTimeout(Duration.ofMillis(600)).clientBodyMinRate(500).build());
        List<Socket> trickles = new ArrayList<>();
        try {
            for (int i = 0; i < 4; i++) {
                Socket socket = new Socket("127.0.0.1", router.port());
                socket.getOutputStream().write(("POST /upload HTTP/1.1\r\nHost: x\r\nContent-Length: 100000\r\n\r\n")
                        .getBytes(StandardCharsets.US_ASCII));
                trickles.add(socket);
            }
            // all four hold their slots before the first probe, or the probe could take one first
            // (on a loaded machine one may already have been cut, for its first byte is late)
            Eventually.await(Duration.ofSeconds(10), () -> {
                Scrape scrape = Scrape.of(router.adminPort());
                return scrape.sum("insika_router_active_requests") == 4.0
                        || scrape.sum("insika_router_client_body_timeouts_total") >= 1;
            }, () -> "the uploads never all began");
            long deadline = System.nanoTime() + Duration.ofSeconds(20).toNanos();
            int status = 0;
            while (System.nanoTime() < deadline && status != 200) {
                for (Socket socket : trickles) {
                    try {
                        socket.getOutputStream().write('x');
                    } catch (IOException cut) {
                        // the router closed it: what the test waits for
                    }
                }
                status = CLIENT.send(HttpRequest.newBuilder(router.uri("/studio/x")).build(),
                        HttpResponse.BodyHandlers.discarding()).statusCode();
                Thread.sleep(200);
            }
            assertThat("a request finds a slot once the trickles were cut", status, is(200));
            assertThat(Scrape.of(router.adminPort()).sum("insika_router_client_body_timeouts_total") >= 1, is(true));
        } finally {
            for (Socket socket : trickles) {
                socket.close();
            }
        }
    }

    // What a connection past the limit is answered, to its end (the router closes it)
    private static String overLimit(int port, String request) throws IOException {
        try (Socket socket = new Socket("127.0.0.1", port)) {
            socket.setSoTimeout(10_000);
            socket.getOutputStream().write(request.getBytes(StandardCharsets.US_ASCII));
            return new String(socket.getInputStream().readAllBytes(), StandardCharsets.ISO_8859_1);
        }
    }

    private static int readiness(int adminPort) {
        try {
            return CLIENT.send(HttpRequest.newBuilder(java.net.URI.create("http://127.0.0.1:" + adminPort
                    + "/observe/health/ready")).build(), HttpResponse.BodyHandlers.discarding()).statusCode();
        } catch (IOException e) {
            throw new java.io.UncheckedIOException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }

    private static final String UP = "GET /up HTTP/1.1\r\nHost: x\r\n\r\n";

    // A kept-alive connection the server has taken: it answered one request on it.
    private static Socket connected(int port) throws IOException {
        Socket socket = new Socket("127.0.0.1", port);
        socket.setSoTimeout(10_000);
        socket.getOutputStream().write(UP.getBytes(StandardCharsets.US_ASCII));
        assertThat(RawHttp.readHead(socket.getInputStream()), startsWith("HTTP/1.1 200"));
        socket.getInputStream().readNBytes(2); // "OK"
        return socket;
    }

    @Test
    void aKeyedPeekThatFindsNoBudgetIsRefusedWithTheEnvelopeNotRoutedWithoutItsKey() throws Exception {
        RouterFixture router = routers.withBackends(1, TestProxySettings.builder().limits(100, 24 * 1024).build());
        // the first slow client takes the whole budget (its peek grew to 32 KiB: 24 KiB beyond the free 8),
        // its key still unseen beyond 20 KiB of padding
        try (Socket first = trickle(router, 20 * 1024)) {
            Eventually.await(Duration.ofSeconds(5),
                    () -> Scrape.of(router.adminPort()).sum("insika_router_peek_budget_bytes_in_use") == 24 * 1024,
                    () -> "the first peek never took the budget");
            refusedWhileTheFirstHoldsTheBudget(router);
        }
        // the first client left: its budget is back
        Eventually.await(Duration.ofSeconds(5),
                () -> Scrape.of(router.adminPort()).sum("insika_router_peek_budget_bytes_in_use") == 0.0,
                () -> "budget still held");
        assertThat(Scrape.of(router.adminPort()).sum("insika_router_overload_refusals_total"), is(1.0));
    }

    private static void refusedWhileTheFirstHoldsTheBudget(RouterFixture router) throws Exception {
        try (Socket second = trickle(router, 20 * 1024)) {
            // the second waits a second for budget, then is refused
            second.setSoTimeout(10_000);
            String answer = new String(second.getInputStream().readAllBytes(), StandardCharsets.ISO_8859_1);
            assertThat(answer, startsWith("HTTP/1.1 503"));
            assertThat(answer, containsString("Insika::Router::Overloaded"));
            assertThat(answer, containsString("Connection: close"));
            assertThat("no backend saw it", router.backends.getFirst().hits.get(), is(0));

            // a small keyed request needs no budget and is served while the first still holds it
            HttpResponse<String> small = CLIENT.send(HttpRequest.newBuilder(router.uri("/v1/responses"))
                    .POST(HttpRequest.BodyPublishers.ofString("{\"user\":\"alice\",\"input\":\"hi\"}")).build(),
                    HttpResponse.BodyHandlers.ofString());
            assertThat(small.statusCode(), is(200));
            assertThat(Scrape.of(router.adminPort()).sum("insika_router_peek_budget_bytes_in_use"), is(24.0 * 1024));
        }
    }

    // The head of a keyed POST declaring 256 KiB, then this much padding before the key, then nothing.
    private static Socket trickle(RouterFixture router, int padding) throws IOException {
        Socket socket = new Socket("127.0.0.1", router.port());
        OutputStream out = socket.getOutputStream();
        out.write(("POST /v1/responses HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: "
                + 262_144 + "\r\n\r\n{\"input\":\"" + "x".repeat(padding)).getBytes(StandardCharsets.US_ASCII));
        out.flush();
        return socket;
    }
}
