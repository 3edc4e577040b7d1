package io.insika.router.server.proxy;

import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import io.insika.router.api.Backend;
import io.insika.router.server.testing.Eventually;
import io.insika.router.server.testing.Scrape;
import io.insika.router.server.testing.TestProxySettings;

import static io.insika.router.server.proxy.RouterFixture.CLIENT;
import static org.hamcrest.MatcherAssert.assertThat;
import static org.hamcrest.Matchers.greaterThan;
import static org.hamcrest.Matchers.greaterThanOrEqualTo;
import static org.hamcrest.Matchers.is;

/**
 * The traffic series move as the traffic did: per route, what clients got by status class, how
 * long requests took end to end and how long their backend took to answer, and the bytes each
 * way; per backend, how long the requests it answered took.
 */
class TrafficMetricsTest {

    private static final String V1 = "POST /v1/responses";
    private static final String NONE = "(none)";
    private static final String ANSWERS = "insika_router_route_responses_total";
    private static final String DURATION = "insika_router_request_duration_seconds";
    private static final String HEAD = "insika_router_route_response_head_seconds";
    private static final String BACKEND_DURATION = "insika_router_backend_request_duration_seconds";

    @RegisterExtension
    final Routers routers = new Routers();

    @Test
    void eachRequestMovesItsRoutesAndItsBackendsSeriesOnce() throws Exception {
        RouterFixture router = routers.withBackends(2, TestProxySettings.DEFAULTS);
        Backend owner = router.ownerOf("alice");
        String body = "{\"user\":\"alice\",\"pad\":\"" + "x".repeat(1000) + "\"}";
        long answered = 0;
        for (int i = 0; i < 4; i++) {
            HttpResponse<String> answer = post(router, body);
            assertThat(answer.statusCode(), is(200));
            answered += answer.body().length();
        }
        assertThat(get(router, "/status/404").statusCode(), is(404));
        assertThat(get(router, "/status/503").statusCode(), is(503));
        router.backendOf(owner).close();
        assertThat("the router's own envelope", post(router, body).statusCode(), is(503));

        // a request is counted as it ends, which may be just after its client has the answer
        Eventually.await(Duration.ofSeconds(5), () -> Scrape.of(router.adminPort()).sum(ANSWERS) == 7.0,
                () -> "answers counted: " + Scrape.of(router.adminPort()).matching(ANSWERS));
        Scrape scrape = Scrape.of(router.adminPort());
        assertThat(scrape.sum(ANSWERS, "route", V1, "code", "2xx"), is(4.0));
        assertThat(scrape.sum(ANSWERS, "route", V1, "code", "5xx"), is(1.0));
        assertThat(scrape.sum(ANSWERS, "route", NONE, "code", "4xx"), is(1.0));
        assertThat(scrape.sum(ANSWERS, "route", NONE, "code", "5xx"), is(1.0));
        assertThat(scrape.sum(ANSWERS, "code", "cut"), is(0.0));

        assertThat(scrape.sum(DURATION + "_count", "route", V1), is(5.0));
        assertThat(scrape.sum(DURATION + "_bucket", "route", V1, "le", "+Inf"), is(5.0));
        assertThat(scrape.sum(DURATION + "_sum", "route", V1), greaterThan(0.0));
        assertThat(scrape.sum(DURATION + "_count", "route", NONE), is(2.0));
        assertThat("the unreachable owner gave no head", scrape.sum(HEAD + "_count", "route", V1), is(4.0));
        assertThat(scrape.sum(HEAD + "_count", "route", NONE), is(2.0));

        assertThat(scrape.sum("insika_router_received_bytes_total", "route", V1), is(5.0 * body.length()));
        assertThat(scrape.sum("insika_router_received_bytes_total", "route", NONE), is(0.0));
        assertThat(scrape.sum("insika_router_sent_bytes_total", "route", V1), greaterThanOrEqualTo((double) answered));

        assertThat(scrape.sum(BACKEND_DURATION + "_count", "backend", owner.id()),
                greaterThanOrEqualTo(4.0)); // the GETs went round-robin, perhaps to it too
        assertThat("every backend answer, none for the envelope", scrape.sum(BACKEND_DURATION + "_count"), is(6.0));
    }

    @Test
    void everyRouteIsExportedFromTheStartAtZero() {
        RouterFixture router = routers.withBackends(1, TestProxySettings.DEFAULTS);

        Scrape scrape = Scrape.of(router.adminPort());
        assertThat(scrape.matching(ANSWERS, "route", V1, "code", "2xx").size(), is(1));
        assertThat(scrape.matching(DURATION + "_count", "route", V1).size(), is(1));
        assertThat(scrape.sum(DURATION + "_count"), is(0.0));
    }

    private static HttpResponse<String> post(RouterFixture router, String body) throws Exception {
        return CLIENT.send(HttpRequest.newBuilder(router.uri("/v1/responses"))
                .POST(HttpRequest.BodyPublishers.ofString(body)).build(), HttpResponse.BodyHandlers.ofString());
    }

    private static HttpResponse<String> get(RouterFixture router, String path) throws Exception {
        return CLIENT.send(HttpRequest.newBuilder(router.uri(path)).build(), HttpResponse.BodyHandlers.ofString());
    }
}
