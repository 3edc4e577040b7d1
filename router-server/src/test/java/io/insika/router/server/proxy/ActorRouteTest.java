package io.insika.router.server.proxy;

import java.net.URI;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;

import io.insika.router.api.Backend;
import io.insika.router.api.PluginOptions;
import io.insika.router.server.RouterServer;
import io.insika.router.server.routing.BackendPool;
import io.insika.router.server.routing.DefaultRoutes;
import io.insika.router.server.routing.ExtractorSpec;
import io.insika.router.server.routing.RouteSpec;
import io.insika.router.server.routing.RouteTable;
import io.insika.router.server.testing.FixturePlugins;
import io.insika.router.server.testing.Scrape;
import io.insika.router.server.testing.TestServers;
import io.insika.router.server.token.RouteToken;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import io.insika.router.server.testing.TestProxySettings;

import static io.insika.router.server.proxy.RouterFixture.CLIENT;
import static org.hamcrest.MatcherAssert.assertThat;
import static org.hamcrest.Matchers.is;

/**
 * The shipped actor route (commented in conf/insika-router.yaml): the route token in the
 * {@code x-sigx-actor-route} header and in the {@code /r/{token}/} path segment place a call
 * alike, on the token's owner; carriers that disagree are placed by the header and counted,
 * never refused; the path reaches the actor host unchanged.
 */
class ActorRouteTest {

    private static final String HEADER = "x-sigx-actor-route";

    private final List<TestBackend> backends = new ArrayList<>();
    private BackendPool pool;
    private RouterServer router;

    @BeforeEach
    void start() {
        for (int i = 0; i < 4; i++) {
            backends.add(TestBackend.start("host-" + i));
        }
        List<RouteSpec> specs = new ArrayList<>(DefaultRoutes.specs());
        int index = specs.size();
        specs.add(new RouteSpec(Set.of("POST"), "/_sigx/actor/r/{token}/*", List.of(
                new ExtractorSpec("header", PluginOptions.of("routes[" + index + "].keys[0]", Map.of("name", HEADER))),
                new ExtractorSpec("path-segment",
                        PluginOptions.of("routes[" + index + "].keys[1]", Map.of("parameter", "token"))))));
        pool = RouterFixture.ketamaPool(backends.stream().map(TestBackend::backend).toList());
        router = TestServers.start(RouteTable.build(specs, FixturePlugins.builtIn()), pool,
                TestProxySettings.DEFAULTS);
    }

    @AfterEach
    void stop() {
        router.close();
        backends.forEach(TestBackend::close);
    }

    @Test
    void aCallWithBothCarriersOrWithItsHeaderStrippedIsPlacedOnItsTokensOwner() throws Exception {
        for (int actor = 0; actor < 20; actor++) {
            String token = RouteToken.hash("Counter/" + actor);
            String owner = nameOf(pool.snapshot().owner(token).orElseThrow());
            assertThat(call(token, token).headers().firstValue("x-backend").orElseThrow(), is(owner));
            assertThat(call(null, token).headers().firstValue("x-backend").orElseThrow(), is(owner));
        }
        assertThat(Scrape.of(router.adminPort()).sum("insika_router_carrier_mismatches_total"), is(0.0));
        assertThat(Scrape.of(router.adminPort()).sum("insika_router_requests_total", "placement", "key"), is(40.0));
    }

    @Test
    void thePathReachesTheActorHostUnchanged() throws Exception {
        String token = RouteToken.hash("Counter/7");
        call(token, token);
        TestBackend owner = backendNamed(nameOf(pool.snapshot().owner(token).orElseThrow()));
        assertThat(owner.lastRawPath, is("/_sigx/actor/r/" + token + "/Counter%23increment"));
        assertThat(owner.lastHeaders.get(HEADER), is(List.of(token)));
    }

    @Test
    void carriersThatDisagreeArePlacedByTheHeaderCountedAndNeverRefused() throws Exception {
        String header = null;
        String path = null;
        for (int actor = 0; header == null; actor++) { // two tokens with different owners
            String a = RouteToken.hash("Room/" + actor);
            String b = RouteToken.hash("Room/" + (actor + 1000));
            if (!pool.snapshot().owner(a).equals(pool.snapshot().owner(b))) {
                header = a;
                path = b;
            }
        }
        HttpResponse<String> answer = call(header, path);

        assertThat(answer.statusCode(), is(200));
        assertThat(answer.headers().firstValue("x-backend").orElseThrow(),
                is(nameOf(pool.snapshot().owner(header).orElseThrow())));
        assertThat(Scrape.of(router.adminPort()).sum("insika_router_carrier_mismatches_total",
                "route", "POST /_sigx/actor/r/{token}/*"), is(1.0));
    }

    // POST /_sigx/actor/r/{path token}/Counter%23increment, with the header when given (a mesh
    // may strip a header; it cannot strip a path segment without the call failing loudly)
    private HttpResponse<String> call(String headerToken, String pathToken) throws Exception {
        HttpRequest.Builder request = HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + router.port()
                        + "/_sigx/actor/r/" + pathToken + "/Counter%23increment"))
                .header("Content-Type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofString("{\"actor\":\"Counter\",\"args\":[1]}"));
        if (headerToken != null) {
            request.header(HEADER, headerToken);
        }
        HttpResponse<String> answer = CLIENT.send(request.build(), HttpResponse.BodyHandlers.ofString());
        assertThat(answer.statusCode(), is(200));
        return answer;
    }

    private String nameOf(Backend backend) {
        return backends.stream().filter(b -> b.backend().equals(backend)).findFirst().orElseThrow().name;
    }

    private TestBackend backendNamed(String name) {
        return backends.stream().filter(b -> b.name.equals(name)).findFirst().orElseThrow();
    }
}
