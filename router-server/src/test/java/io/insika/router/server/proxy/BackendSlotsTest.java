package io.insika.router.server.proxy;

import java.io.InputStream;
import java.net.InetAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;

import io.insika.router.api.Backend;
import io.insika.router.server.backends.BackendCapacity;
import io.insika.router.server.backends.BackendLimits;
import io.insika.router.server.testing.Eventually;
import io.insika.router.server.testing.RawHttp;
import io.insika.router.server.testing.Scrape;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;
import io.insika.router.server.testing.TestProxySettings;

import static io.insika.router.server.proxy.RouterFixture.CLIENT;
import static org.hamcrest.MatcherAssert.assertThat;
import static org.hamcrest.Matchers.containsString;
import static org.hamcrest.Matchers.everyItem;
import static org.hamcrest.Matchers.is;
import static org.hamcrest.Matchers.not;
import static org.hamcrest.Matchers.startsWith;

/**
 * A backend's {@code max-requests}: a session whose owner is full is told to retry at once and
 * is never sent elsewhere; a request without a key goes to the next backend with a free slot;
 * slots come back when requests end, however they end.
 */
@Timeout(60)
class BackendSlotsTest {

    @RegisterExtension
    final Routers routers = new Routers();

    private static ProxySettings requestSlots(int each) {
        return TestProxySettings.builder().capacityEverywhere(new BackendLimits(each, 0)).build();
    }

    @Test
    void aSessionWhoseOwnerIsFullGetsTheEnvelopeAtOnceAndNeverAnotherBackend() throws Exception {
        RouterFixture router = routers.withBackends(2, requestSlots(1));
        TestBackend owner = router.backendOf(router.ownerOf("alice"));
        CompletableFuture<HttpResponse<String>> held = CLIENT.sendAsync(keyed(router, "alice", true),
                HttpResponse.BodyHandlers.ofString());
        Eventually.await(Duration.ofSeconds(5), () -> owner.holding.get() == 1, () -> "the first never arrived");

        HttpResponse<String> refused = CLIENT.send(keyed(router, "alice", false), HttpResponse.BodyHandlers.ofString());

        assertThat(refused.statusCode(), is(503));
        assertThat(refused.headers().firstValue("retry-after"), is(Optional.of("1")));
        assertThat(refused.body(), containsString("Insika::Router::BackendFull"));
        assertThat("no other backend saw the session", hits(router), is(1));
        String neighbour = keyOwnedByAnother(router, owner);
        assertThat(CLIENT.send(keyed(router, neighbour, false), HttpResponse.BodyHandlers.ofString()).statusCode(),
                is(200));
        owner.holdRelease.release();
        assertThat(held.get().statusCode(), is(200));
        // the slot came back before the answer's end reached us: no wait needed
        assertThat(CLIENT.send(keyed(router, "alice", false), HttpResponse.BodyHandlers.ofString()).body(),
                containsString(owner.name));
        assertThat(Scrape.of(router.adminPort()).sum("insika_router_backend_refusals_total",
                "backend", owner.backend().id(), "reason", "requests-full"), is(1.0));
    }

    @Test
    void anUnkeyedRequestGoesToTheNextBackendWithAFreeSlotAndAllFullGetsTheEnvelope() throws Exception {
        RouterFixture router = routers.withBackends(2, requestSlots(1));
        CompletableFuture<HttpResponse<String>> first = CLIENT.sendAsync(unkeyed(router, true),
                HttpResponse.BodyHandlers.ofString());
        Eventually.await(Duration.ofSeconds(5), () -> holding(router) == 1, () -> "the first never arrived");
        TestBackend busy = router.backends.stream().filter(b -> b.holding.get() == 1).findFirst().orElseThrow();
        TestBackend free = router.backends.stream().filter(b -> b != busy).findFirst().orElseThrow();

        List<String> servedBy = new ArrayList<>();
        for (int i = 0; i < 6; i++) {
            servedBy.add(CLIENT.send(unkeyed(router, false), HttpResponse.BodyHandlers.ofString())
                    .headers().firstValue("x-backend").orElse("?"));
        }
        assertThat(servedBy, everyItem(is(free.name)));

        CompletableFuture<HttpResponse<String>> second = CLIENT.sendAsync(unkeyed(router, true),
                HttpResponse.BodyHandlers.ofString());
        Eventually.await(Duration.ofSeconds(5), () -> holding(router) == 2, () -> "the second never arrived");
        HttpResponse<String> refused = CLIENT.send(unkeyed(router, false), HttpResponse.BodyHandlers.ofString());
        assertThat(refused.statusCode(), is(503));
        assertThat(refused.body(), containsString("Insika::Router::BackendFull"));

        router.backends.forEach(b -> b.holdRelease.release());
        assertThat(first.get().statusCode(), is(200));
        assertThat(second.get().statusCode(), is(200));
    }

    @Test
    void aStaticBackendsOwnLimitBeatsTheDefault() throws Exception {
        List<TestBackend> started = List.of(TestBackend.start("backend-0"), TestBackend.start("backend-1"));
        Backend roomy = RouterFixture.ketamaPool(started.stream().map(TestBackend::backend).toList())
                .snapshot().owner("alice").orElseThrow();
        BackendCapacity capacity = new BackendCapacity(new BackendLimits(1, 0),
                Map.of(roomy.id(), new BackendLimits(2, 0)));
        try (RouterFixture router = RouterFixture.start(started, TestProxySettings.builder().capacity(capacity).build())) {
            router.backends.addAll(started);
            TestBackend owner = router.backendOf(roomy);
            List<CompletableFuture<HttpResponse<String>>> held = new ArrayList<>();
            for (int i = 0; i < 2; i++) {
                held.add(CLIENT.sendAsync(keyed(router, "alice", true), HttpResponse.BodyHandlers.ofString()));
            }
            Eventually.await(Duration.ofSeconds(5), () -> owner.holding.get() == 2, () -> "two slots were not given");

            assertThat(CLIENT.send(keyed(router, "alice", false), HttpResponse.BodyHandlers.ofString()).statusCode(),
                    is(503));
            owner.holdRelease.release(2);
            for (CompletableFuture<HttpResponse<String>> request : held) {
                assertThat(request.get().statusCode(), is(200));
            }
        }
    }

    @Test
    void aSlotComesBackWhenTheExchangeFails() throws Exception {
        RouterFixture router = routers.withBackends(1, requestSlots(1));
        HttpResponse<String> broken = sendQuietly(router, "/broken");
        assertThat("the backend cut its answer", broken == null || broken.statusCode() != 200, is(true));
        assertThat(CLIENT.send(HttpRequest.newBuilder(router.uri("/status/502")).build(),
                HttpResponse.BodyHandlers.ofString()).statusCode(), is(502));

        Eventually.await(Duration.ofSeconds(5), () -> Scrape.of(router.adminPort())
                .sum("insika_router_backend_in_flight", "kind", "requests") == 0.0, () -> "a slot was kept");
        HttpResponse<String> after = CLIENT.send(unkeyed(router, false), HttpResponse.BodyHandlers.ofString());
        assertThat(after.statusCode(), is(200));
        assertThat(after.body(), not(containsString("BackendFull")));
    }

    private static HttpResponse<String> sendQuietly(RouterFixture router, String path) {
        try {
            return CLIENT.send(HttpRequest.newBuilder(router.uri(path)).build(), HttpResponse.BodyHandlers.ofString());
        } catch (java.io.IOException | InterruptedException e) {
            return null;
        }
    }

    @Test
    void aClientThatSendsItsNextRequestTheMomentItsAnswerArrivedFindsTheSlotFree() throws Exception {
        RouterFixture router = routers.withBackends(1, requestSlots(1));
        String body = "{\"user\":\"one-at-a-time\"}";
        byte[] request = ("POST /v1/responses HTTP/1.1\r\nHost: router\r\nContent-Type: application/json\r\n"
                + "Content-Length: " + body.length() + "\r\n\r\n" + body).getBytes(StandardCharsets.US_ASCII);
        // two connections taken in turn, as a client's pool does, each request written the moment
        // the last byte of the answer before it was read on the other
        try (Socket first = new Socket(InetAddress.getLoopbackAddress(), router.port());
             Socket second = new Socket(InetAddress.getLoopbackAddress(), router.port())) {
            for (Socket socket : List.of(first, second)) {
                socket.setSoTimeout(10_000);
                socket.setTcpNoDelay(true);
            }
            for (int i = 0; i < 2000; i++) {
                Socket socket = i % 2 == 0 ? first : second;
                socket.getOutputStream().write(request);
                InputStream in = socket.getInputStream();
                String head = RawHttp.readHead(in);
                int length = Integer.parseInt(head.lines().filter(l -> l.toLowerCase().startsWith("content-length:"))
                        .findFirst().orElseThrow().substring(15).strip());
                String answer = new String(in.readNBytes(length), StandardCharsets.US_ASCII);
                assertThat("#" + i + ": " + answer, head, startsWith("HTTP/1.1 200"));
            }
        }
    }

    static HttpRequest keyed(RouterFixture router, String user, boolean hold) {
        HttpRequest.Builder request = HttpRequest.newBuilder(router.uri("/v1/responses"))
                .header("Content-Type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofString("{\"user\":\"" + user + "\",\"input\":\"hi\"}"));
        return (hold ? request.header("X-Hold", "1") : request).build();
    }

    static HttpRequest unkeyed(RouterFixture router, boolean hold) {
        HttpRequest.Builder request = HttpRequest.newBuilder(router.uri("/studio/page"));
        return (hold ? request.header("X-Hold", "1") : request).build();
    }

    static String keyOwnedByAnother(RouterFixture router, TestBackend than) {
        for (int i = 0; ; i++) {
            String key = "user-" + i;
            if (!router.ownerOf(key).equals(than.backend())) {
                return key;
            }
        }
    }

    private static int hits(RouterFixture router) {
        return router.backends.stream().mapToInt(b -> b.hits.get()).sum();
    }

    private static int holding(RouterFixture router) {
        return router.backends.stream().mapToInt(b -> b.holding.get()).sum();
    }
}
