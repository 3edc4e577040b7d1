package io.insika.router.server.proxy;

import java.io.InputStream;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.List;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import io.insika.router.api.Backend;
import io.insika.router.api.PluginOptions;
import io.insika.router.server.routing.RingFingerprint;
import io.insika.router.server.testing.Eventually;
import io.insika.router.server.testing.Scrape;
import io.insika.router.server.testing.TestProxySettings;

import static io.insika.router.server.proxy.RouterFixture.CLIENT;
import static org.hamcrest.MatcherAssert.assertThat;
import static org.hamcrest.Matchers.closeTo;
import static org.hamcrest.Matchers.containsString;
import static org.hamcrest.Matchers.empty;
import static org.hamcrest.Matchers.isEmptyOrNullString;
import static org.hamcrest.Matchers.endsWith;
import static org.hamcrest.Matchers.greaterThan;
import static org.hamcrest.Matchers.is;
import static org.hamcrest.Matchers.not;

/**
 * {@code /observe/metrics} on the admin port counts what an operator of a sticky proxy needs to
 * see: requests that lost their key (they succeed, on scattered backends), each backend's
 * answers, latency and failures, and what is open now.
 */
class ProxyMetricsTest {

    private static final String REQUESTS = "insika_router_requests_total";
    private static final String RESPONSES = "insika_router_backend_responses_total";
    private static final String ERRORS = "insika_router_backend_errors_total";
    private static final String V1 = "POST /v1/responses";

    @RegisterExtension
    final Routers routers = new Routers();
    private RouterFixture router;

    private void start(int count, ProxySettings settings) {
        router = routers.withBackends(count, settings);
    }

    @Test
    void replicasOverTheSameBackendsShowOneRingFingerprintAndAChangeShowsAnother() {
        start(2, TestProxySettings.DEFAULTS);
        try (RouterFixture replica = RouterFixture.start(router.backends)) {
            String fingerprint = ringFingerprint(router.adminPort());

            assertThat(ringFingerprint(replica.adminPort()), is(fingerprint));
            assertThat(fingerprint, is(RingFingerprint.of("ketama", PluginOptions.empty(),
                    router.pool.snapshot().backends())));

            replica.pool.update(List.of(router.backends.get(0).backend()));
            assertThat(ringFingerprint(replica.adminPort()), not(fingerprint));
            assertThat(ringFingerprint(router.adminPort()), is(fingerprint));
        }
        List<Scrape.Sample> build = Scrape.of(router.adminPort()).matching("insika_router_build_info");
        assertThat(build.size(), is(1));
        assertThat(build.get(0).labels().get("version"), not(isEmptyOrNullString()));
        assertThat(build.get(0).value(), is(1.0));
    }

    private static String ringFingerprint(int adminPort) {
        List<Scrape.Sample> ring = Scrape.of(adminPort).matching("insika_router_ring_info");
        assertThat(ring.size(), is(1));
        return ring.get(0).labels().get("fingerprint");
    }

    @Test
    void countsHowEachRequestWasPlacedPerRoute() throws Exception {
        start(3, TestProxySettings.builder().bodyMaxBytes(1024).build());
        for (int i = 0; i < 3; i++) {
            post("/v1/responses", "{\"user\":\"u" + i + "\"}");
        }
        post("/v1/responses", "{\"model\":\"m\"}");
        post("/v1/responses", "not json");
        post("/v1/responses", "");
        post("/v1/responses", "{\"input\":\"" + "x".repeat(2000) + "\",\"user\":\"late\"}");
        get("/studio/index.html");

        Scrape scrape = Scrape.of(router.adminPort());
        assertThat(scrape.sum(REQUESTS, "route", V1, "placement", "key"), is(3.0));
        assertThat(scrape.sum(REQUESTS, "route", V1, "placement", "key-absent"), is(2.0));
        assertThat(scrape.sum(REQUESTS, "route", V1, "placement", "no-key-source"), is(1.0));
        assertThat(scrape.sum(REQUESTS, "route", V1, "placement", "key-beyond-cap"), is(1.0));
        assertThat(scrape.sum(REQUESTS, "route", "(none)", "placement", "no-route"), is(1.0));
        // every route of the table is exported from the start, so a rate() over it never starts empty
        assertThat(scrape.sum(REQUESTS, "route", "POST /channels/{id}/events", "placement", "key"), is(0.0));
    }

    @Test
    void countsEachBackendsAnswersByClassWithTheirLatency() throws Exception {
        start(2, TestProxySettings.DEFAULTS);
        Backend owner = router.ownerOf("alice");
        for (int i = 0; i < 4; i++) {
            assertThat(post("/v1/responses", "{\"user\":\"alice\"}").statusCode(), is(200));
        }
        assertThat(get("/status/404").statusCode(), is(404));
        assertThat(get("/status/503").statusCode(), is(503));

        Scrape scrape = Scrape.of(router.adminPort());
        assertThat(scrape.sum(RESPONSES, "backend", owner.id(), "code", "2xx"), greaterThan(3.0));
        assertThat(scrape.sum(RESPONSES, "code", "2xx"), is(4.0));
        assertThat(scrape.sum(RESPONSES, "code", "4xx"), is(1.0));
        assertThat(scrape.sum(RESPONSES, "code", "5xx"), is(1.0)); // a backend's own 503 is an answer, not an error
        assertThat(scrape.sum(ERRORS), is(0.0));
        String histogram = "insika_router_backend_response_head_seconds";
        assertThat(scrape.sum(histogram + "_count"), is(6.0));
        assertThat(scrape.sum(histogram + "_bucket", "le", "+Inf"), is(6.0));
        assertThat(scrape.sum(histogram + "_sum"), greaterThan(0.0));
    }

    @Test
    void countsAnUnreachableOwnerAgainstThatOwnerOnly() throws Exception {
        start(3, TestProxySettings.DEFAULTS);
        Backend owner = router.ownerOf("orphan");
        router.backendOf(owner).close();
        assertThat(post("/v1/responses", "{\"user\":\"orphan\"}").statusCode(), is(503));

        Scrape scrape = Scrape.of(router.adminPort());
        assertThat(scrape.sum(ERRORS, "backend", owner.id(), "error", "unreachable"), is(1.0));
        assertThat(scrape.sum(ERRORS), is(1.0));
        assertThat(scrape.sum(RESPONSES), is(0.0));
    }

    @Test
    void countsTimeoutsAndAnswersCutShort() throws Exception {
        start(1, TestProxySettings.builder().backendTimeout(Duration.ofMillis(300)).build());
        String id = router.backends.get(0).backend().id();
        assertThat(get("/silent").statusCode(), is(504));
        try {
            get("/broken");
        } catch (java.io.IOException expected) {
            // the answer was cut: the client sees its connection close without an ending
        }

        Scrape scrape = Scrape.of(router.adminPort());
        assertThat(scrape.sum(ERRORS, "backend", id, "error", "timeout"), is(1.0));
        assertThat(scrape.sum(ERRORS, "backend", id, "error", "broken"), is(1.0));
        assertThat(scrape.sum(ERRORS, "backend", id, "error", "failed"), is(0.0));
        // the cut answer did start: its head was relayed and counted
        assertThat(scrape.sum(RESPONSES, "backend", id, "code", "2xx"), is(1.0));
    }

    @Test
    void anEmptyPoolIsCountedUnderNoBackend() throws Exception {
        start(1, TestProxySettings.DEFAULTS);
        router.pool.update(List.of());
        assertThat(get("/anything").statusCode(), is(503));

        Scrape scrape = Scrape.of(router.adminPort());
        assertThat(scrape.sum(ERRORS, "backend", "(none)", "error", "no-backend"), is(1.0));
        assertThat(scrape.sum("insika_router_backends"), is(0.0));
    }

    @Test
    void showsWhatIsOpenNow() throws Exception {
        start(3, TestProxySettings.DEFAULTS);
        Scrape idle = Scrape.of(router.adminPort());
        assertThat(idle.sum("insika_router_backends"), is(3.0));
        assertThat(idle.sum("insika_router_active_requests"), is(0.0));

        HttpResponse<InputStream> stream = CLIENT.send(HttpRequest.newBuilder(router.uri("/endless")).build(),
                HttpResponse.BodyHandlers.ofInputStream());
        try (InputStream events = stream.body()) {
            assertThat(events.read(), not(-1)); // the stream is flowing through the router
            Scrape open = Scrape.of(router.adminPort());
            assertThat(open.sum("insika_router_active_requests"), is(1.0));
            assertThat(open.sum("insika_router_backend_connections"), is(1.0));
        }
        Eventually.await(Duration.ofSeconds(5),
                () -> Scrape.of(router.adminPort()).sum("insika_router_active_requests") == 0.0,
                () -> Scrape.of(router.adminPort()).matching("insika_router_active_requests").toString());
    }

    @Test
    void aBackendThatLeftThePoolIsExportedOnceMoreThenDropped() throws Exception {
        start(2, TestProxySettings.DEFAULTS);
        for (int i = 0; i < 10; i++) {
            get("/spread/" + i);
        }
        Backend leaving = router.backends.get(1).backend();
        assertThat(Scrape.of(router.adminPort()).matching(RESPONSES, "backend", leaving.id()), not(empty()));

        router.pool.update(List.of(router.backends.get(0).backend()));
        Scrape last = Scrape.of(router.adminPort());
        assertThat(last.sum(RESPONSES, "backend", leaving.id(), "code", "2xx"), is(5.0));

        Scrape after = Scrape.of(router.adminPort());
        assertThat(after.matching(RESPONSES, "backend", leaving.id()), is(empty()));
        assertThat(after.matching(ERRORS, "backend", leaving.id()), is(empty()));
        assertThat(after.matching("insika_router_backend_response_head_seconds_count", "backend", leaving.id()),
                is(empty()));
        assertThat(after.sum(RESPONSES, "backend", router.backends.get(0).backend().id(), "code", "2xx"), is(5.0));
    }

    @Test
    void speaksOpenMetricsToAScraperThatAsksForIt() throws Exception {
        start(1, TestProxySettings.DEFAULTS);
        HttpResponse<String> openMetrics = CLIENT.send(HttpRequest.newBuilder(
                        URI.create("http://127.0.0.1:" + router.adminPort() + "/observe/metrics"))
                        .header("Accept", "application/openmetrics-text;version=1.0.0;q=0.5,text/plain;q=0.4").build(),
                HttpResponse.BodyHandlers.ofString());
        assertThat(openMetrics.headers().firstValue("Content-Type").orElseThrow(),
                containsString("application/openmetrics-text"));
        assertThat(openMetrics.body(), endsWith("# EOF\n"));

        Scrape plain = Scrape.of(router.adminPort());
        assertThat(plain.sum("jvm_memory_used_bytes", "area", "heap"), greaterThan(0.0));
        assertThat(plain.sum("insika_router_open_tunnels"), closeTo(0.0, 0.0));
    }

    @Test
    void isNotServedOnTheProxyPort() throws Exception {
        start(1, TestProxySettings.DEFAULTS);
        HttpResponse<String> proxied = get("/observe/metrics");
        // the backend's echo, not the router's metrics
        assertThat(proxied.headers().firstValue("X-Backend").orElseThrow(), is("backend-0"));
        assertThat(proxied.body(), not(containsString("insika_router")));
    }

    private HttpResponse<String> post(String path, String body) throws Exception {
        return send(HttpRequest.newBuilder(router.uri(path)).POST(HttpRequest.BodyPublishers.ofString(body)));
    }

    private HttpResponse<String> get(String path) throws Exception {
        return send(HttpRequest.newBuilder(router.uri(path)));
    }

    private static HttpResponse<String> send(HttpRequest.Builder request) throws Exception {
        return CLIENT.send(request.build(), HttpResponse.BodyHandlers.ofString());
    }
}
