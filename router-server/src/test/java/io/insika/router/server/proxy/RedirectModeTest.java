package io.insika.router.server.proxy;

import java.net.URI;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.logging.Level;

import io.helidon.json.JsonObject;
import io.helidon.json.JsonParser;
import io.insika.router.api.Backend;
import io.insika.router.api.PluginOptions;
import io.insika.router.server.RouterServer;
import io.insika.router.server.routing.BackendPool;
import io.insika.router.server.routing.ExtractorSpec;
import io.insika.router.server.routing.MissPolicy;
import io.insika.router.server.routing.RouteSpec;
import io.insika.router.server.routing.RouteTable;
import io.insika.router.server.testing.FixturePlugins;
import io.insika.router.server.testing.LogCapture;
import io.insika.router.server.testing.Scrape;
import io.insika.router.server.testing.TestServers;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import io.insika.router.server.testing.TestProxySettings;

import static io.insika.router.server.proxy.RouterFixture.CLIENT;
import static org.hamcrest.MatcherAssert.assertThat;
import static org.hamcrest.Matchers.containsString;
import static org.hamcrest.Matchers.hasSize;
import static org.hamcrest.Matchers.is;
import static org.hamcrest.Matchers.not;

/**
 * {@code on-miss}: in redirect mode a keyed request is answered 421 with its owner's public
 * address, before any backend sees it; auto redirects only what is not a cross-origin browser;
 * what cannot follow a redirect is proxied, and so is a request whose owner has no public address.
 */
class RedirectModeTest {

    private final List<TestBackend> backends = new ArrayList<>();
    private BackendPool pool;
    private RouterServer router;

    @AfterEach
    void stop() {
        if (router != null) {
            router.close();
        }
        backends.forEach(TestBackend::close);
    }

    // Two backends; the first has a public address, the second none
    private void start(MissPolicy onMiss) {
        backends.add(TestBackend.start("host-0"));
        backends.add(TestBackend.start("host-1"));
        List<Backend> members = List.of(
                backends.get(0).backend().withPublicAddress(URI.create("https://host-0.example.com")),
                backends.get(1).backend());
        pool = RouterFixture.ketamaPool(members);
        RouteSpec route = new RouteSpec(Set.of("POST"), "/v1/responses", List.of(new ExtractorSpec("json-field",
                PluginOptions.of("routes[0].keys[0]", Map.of("field", "user")))), onMiss);
        router = TestServers.start(RouteTable.build(List.of(route), FixturePlugins.builtIn()), pool,
                TestProxySettings.DEFAULTS);
    }

    @Test
    void inRedirectModeASessionGets421WithItsOwnersPublicAddressAndNoBackendSeesIt() throws Exception {
        start(new MissPolicy(MissPolicy.Mode.REDIRECT, Set.of(), 2));
        String user = userOwnedBy(0);

        HttpResponse<String> answer = call(user, Map.of());

        assertThat(answer.statusCode(), is(421));
        assertThat(answer.headers().firstValue("x-insika-redirects"), is(java.util.Optional.of("1")));
        JsonObject body = JsonParser.create(answer.body()).readJsonObject();
        assertThat(body.objectValue("owner").orElseThrow().stringValue("endpoint").orElseThrow(),
                is("https://host-0.example.com"));
        assertThat(body.objectValue("error").orElseThrow().booleanValue("retryable").orElseThrow(), is(true));
        assertThat("the internal address is never published", answer.body(),
                not(containsString(String.valueOf(backends.get(0).port()))));
        assertThat("nothing was forwarded", backends.get(0).hits.get() + backends.get(1).hits.get(), is(0));
        assertThat(Scrape.of(router.adminPort()).sum("insika_router_redirects_total", "backend",
                pool.snapshot().owner(user).orElseThrow().id()), is(1.0));
    }

    @Test
    void inRedirectModeAKeyedRequestThatFindsNoBackendsGetsTheRetryEnvelope() throws Exception {
        pool = RouterFixture.ketamaPool(List.of());
        RouteSpec route = new RouteSpec(Set.of("POST"), "/v1/responses", List.of(new ExtractorSpec("json-field",
                PluginOptions.of("routes[0].keys[0]", Map.of("field", "user")))),
                new MissPolicy(MissPolicy.Mode.REDIRECT, Set.of(), 2));
        router = TestServers.start(RouteTable.build(List.of(route), FixturePlugins.builtIn()), pool,
                TestProxySettings.DEFAULTS);

        HttpResponse<String> answer = call("alice", Map.of());

        assertThat(answer.statusCode(), is(503));
        assertThat(answer.headers().firstValue("retry-after"), is(java.util.Optional.of("1")));
        assertThat(answer.body(), containsString("Insika::Router::BackendUnavailable"));
    }

    @Test
    void aRedirectedRequestsUnreadBodyIsCutOffWithTheConnectionNeverReadAsARequest() throws Exception {
        start(new MissPolicy(MissPolicy.Mode.REDIRECT, Set.of(), 2));
        // the key is known where the JSON document ends, so the peek stops near there: the rest of the
        // body, a smuggled request at its end, is never read
        String body = "{\"user\":\"" + userOwnedBy(0) + "\"}" + " ".repeat(100_000)
                + "GET /slow-smuggled HTTP/1.1\r\nHost: x\r\n\r\n";
        String answer = EdgeSafetyTest.rawExchange(router.port(), "POST /v1/responses HTTP/1.1\r\nHost: x\r\n"
                + "Content-Type: application/json\r\nContent-Length: " + body.length() + "\r\n\r\n" + body);

        assertThat(answer, org.hamcrest.Matchers.startsWith("HTTP/1.1 421"));
        assertThat(answer, containsString("Connection: close"));
        assertThat("one answer, and then the close", answer.indexOf("HTTP/1.1", 1), is(-1));
        assertThat(backends.get(0).hits.get() + backends.get(1).hits.get(), is(0));
    }

    @Test
    void byDefaultEveryKeyedRequestIsProxied() throws Exception {
        start(MissPolicy.PROXY);
        assertThat(call(userOwnedBy(0), Map.of()).statusCode(), is(200));
        assertThat(backends.get(0).hits.get(), is(1));
    }

    @Test
    void autoRedirectsWhatHasNoOriginOrAnAllowedOneAndProxiesOtherBrowsers() throws Exception {
        start(new MissPolicy(MissPolicy.Mode.AUTO, Set.of("https://app.example.com"), 2));
        String user = userOwnedBy(0);

        assertThat("a service client", call(user, Map.of()).statusCode(), is(421));
        assertThat("an allowed origin", call(user, Map.of("Origin", "https://APP.example.com")).statusCode(), is(421));
        assertThat("another origin: a cross-origin redirect would be refused",
                call(user, Map.of("Origin", "https://elsewhere.example.com")).statusCode(), is(200));
        assertThat(backends.get(0).hits.get(), is(1));
    }

    @Test
    void whatCannotFollowARedirectIsProxied() throws Exception {
        start(new MissPolicy(MissPolicy.Mode.REDIRECT, Set.of(), 2));
        String user = userOwnedBy(0);

        assertThat("a stream", call(user, Map.of("Accept", "text/event-stream")).statusCode(), is(200));
        assertThat("redirected twice already", call(user, Map.of("X-Insika-Redirects", "2")).statusCode(), is(200));
        assertThat("a count that is no count", call(user, Map.of("X-Insika-Redirects", "lots")).statusCode(), is(200));
        assertThat("redirected once: once more", call(user, Map.of("X-Insika-Redirects", "1")).headers()
                .firstValue("x-insika-redirects"), is(java.util.Optional.of("2")));
        assertThat(backends.get(0).hits.get(), is(3));
    }

    @Test
    void anOwnerWithoutAPublicAddressIsProxiedToWithOneWarning() throws Exception {
        try (LogCapture log = LogCapture.of(Redirector.class)) {
            start(new MissPolicy(MissPolicy.Mode.REDIRECT, Set.of(), 2));
            String user = userOwnedBy(1);

            for (int i = 0; i < 3; i++) {
                assertThat(call(user, Map.of()).statusCode(), is(200));
            }

            assertThat(backends.get(1).hits.get(), is(3));
            assertThat(log.messages(Level.WARNING), hasSize(1));
            assertThat(log.messages(Level.WARNING).getFirst(), containsString("has no public-address"));
            assertThat(Scrape.of(router.adminPort()).sum("insika_router_redirects_unavailable_total"), is(3.0));
        }
    }

    @Test
    void anUpgradeIsNeverRedirected() throws Exception {
        start(new MissPolicy(MissPolicy.Mode.REDIRECT, Set.of(), 2));
        // a keyed request asking to upgrade that the tunnel did not take reaches the proxy with its Upgrade
        String json = "{\"user\":\"" + userOwnedBy(0) + "\"}";
        String answer = EdgeSafetyTest.rawExchange(router.port(), "POST /v1/responses HTTP/1.1\r\nHost: x\r\n"
                + "Connection: Upgrade, close\r\nUpgrade: websocket\r\nContent-Type: application/json\r\n"
                + "Content-Length: " + json.length() + "\r\n\r\n" + json);
        assertThat(answer, not(containsString(" 421 ")));
        assertThat(answer, containsString("HTTP/1.1 200"));
    }

    private String userOwnedBy(int backend) {
        for (int i = 0; ; i++) {
            if (pool.snapshot().owner("user-" + i).orElseThrow().uri().equals(backends.get(backend).backend().uri())) {
                return "user-" + i;
            }
        }
    }

    private HttpResponse<String> call(String user, Map<String, String> headers) throws Exception {
        HttpRequest.Builder request = HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + router.port()
                + "/v1/responses")).header("Content-Type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofString("{\"user\":\"" + user + "\",\"input\":\"hi\"}"));
        headers.forEach(request::header);
        return CLIENT.send(request.build(), HttpResponse.BodyHandlers.ofString());
    }
}
