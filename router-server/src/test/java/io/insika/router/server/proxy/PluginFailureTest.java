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
import io.helidon.json.JsonValue;
import io.insika.router.api.PluginOptions;
import io.insika.router.server.RouterServer;
import io.insika.router.server.plugin.PluginFailureLog;
import io.insika.router.server.plugin.PluginRegistry;
import io.insika.router.server.routing.BackendPool;
import io.insika.router.server.routing.ExtractorSpec;
import io.insika.router.server.routing.RouteSpec;
import io.insika.router.server.routing.RouteTable;
import io.insika.router.server.testing.FixturePlugins;
import io.insika.router.server.testing.LogCapture;
import io.insika.router.server.testing.Scrape;
import io.insika.router.server.testing.TestServers;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import io.insika.router.server.testing.TestProxySettings;

import static io.insika.router.server.proxy.RouterFixture.CLIENT;
import static org.hamcrest.MatcherAssert.assertThat;
import static org.hamcrest.Matchers.containsString;
import static org.hamcrest.Matchers.hasSize;
import static org.hamcrest.Matchers.is;

/**
 * A plugin that throws, against its contract, is contained: its requests get the plugin-failure
 * envelope, the admin port keeps answering and says what threw, and the log says it once per
 * interval, never once per request.
 */
@Timeout(60)
class PluginFailureTest {

    private static final String ENVELOPE = "{\"error\":{\"class\":\"Insika::Router::PluginFailed\",\"message\":"
            + "\"a plugin of the router failed placing the request; no backend saw it\",\"retryable\":false}}";
    private static final PluginRegistry PLUGINS = FixturePlugins.registry();

    private final List<TestBackend> backends = new ArrayList<>(List.of(TestBackend.start("backend-0"),
            TestBackend.start("backend-1")));
    private final LogCapture log = LogCapture.of(PluginFailureLog.class);
    private RouterServer router;

    @AfterEach
    void tearDown() {
        if (router != null) {
            router.close();
        }
        backends.forEach(TestBackend::close);
        log.close();
    }

    @Test
    void aStrategyThatThrowsCostsEachKeyedRequestThePluginFailureEnvelope() throws Exception {
        start(FixturePlugins.THROWING_STRATEGY);

        for (int i = 0; i < 3; i++) {
            HttpResponse<String> answer = post("/v1/responses", "{\"user\":\"alice\"}");

            assertThat(answer.statusCode(), is(500));
            assertThat(answer.headers().firstValue("Content-Type").orElseThrow(), is("application/json"));
            assertThat(answer.body(), is(ENVELOPE));
        }
        assertThat(Scrape.of(router.adminPort()).sum("insika_router_plugin_failures_total", "route",
                "POST /v1/responses", "plugin", FixturePlugins.THROWING_STRATEGY), is(3.0));
    }

    @Test
    void aRequestWithoutAKeyIsStillServedWhileTheStrategyThrows() throws Exception {
        start(FixturePlugins.THROWING_STRATEGY);

        HttpResponse<String> answer = post("/v1/responses", "{\"model\":\"no user here\"}");

        assertThat(answer.statusCode(), is(200));
    }

    @Test
    void aKeyExtractorThatThrowsCostsItsRequestsThePluginFailureEnvelopeNotAGuess() throws Exception {
        start("ketama");

        HttpResponse<String> answer = post("/throwing", "{\"user\":\"alice\"}");

        assertThat(answer.statusCode(), is(500));
        assertThat(answer.body(), is(ENVELOPE));
        assertThat(Scrape.of(router.adminPort()).sum("insika_router_plugin_failures_total", "route",
                "POST /throwing", "plugin", FixturePlugins.THROWING_EXTRACTOR), is(1.0));
        List<String> said = log.messages(Level.WARNING);
        assertThat(said, hasSize(1));
        assertThat(said.getFirst(), containsString("key extractor fixture-throwing-key threw reading a key:"
                + " java.lang.IllegalStateException: fixture: this extractor always throws; its requests on"
                + " POST /throwing are answered 500"));
    }

    @Test
    void aPluginFailingOnEveryRequestIsLoggedOncePerIntervalWithItsStackTrace() throws Exception {
        start(FixturePlugins.THROWING_STRATEGY);

        for (int i = 0; i < 20; i++) {
            assertThat(post("/v1/responses", "{\"user\":\"user-" + i + "\"}").statusCode(), is(500));
            assertThat(post("/throwing", "{}").statusCode(), is(500));
        }

        // the interval is a minute: these 40 requests fall within the first one of each plugin
        assertThat(log.records(Level.WARNING), hasSize(2));
        assertThat(log.records(Level.WARNING).getFirst().getThrown().getMessage(),
                is("fixture: this picker always throws"));
    }

    @Test
    void theAdminPortKeepsAnsweringAndSaysWhatTheStrategyThrew() throws Exception {
        start(FixturePlugins.THROWING_STRATEGY);

        HttpResponse<String> described = admin("/observe/backends");
        HttpResponse<String> owner = admin("/observe/owner?key=alice");

        assertThat(described.statusCode(), is(200));
        JsonObject body = JsonParser.create(described.body()).readJsonObject();
        JsonObject error = body.objectValue("strategy-error").orElseThrow();
        assertThat(error.stringValue("error").orElseThrow(), is("pick-failed"));
        assertThat(error.stringValue("detail").orElseThrow(), is("strategy fixture-throwing threw picking a key's"
                + " owner: java.lang.IllegalStateException: fixture: this picker always throws"));
        for (JsonValue backend : body.arrayValue("backends").orElseThrow().values()) {
            assertThat("not known", backend.asObject().value("key-share").orElseThrow().type().name(), is("NULL"));
        }
        assertThat(owner.statusCode(), is(500));
        JsonObject ownerBody = JsonParser.create(owner.body()).readJsonObject();
        assertThat(ownerBody.value("backend").orElseThrow().type().name(), is("NULL"));
        assertThat(ownerBody.intValue("backends").orElseThrow(), is(2));
        assertThat(ownerBody.stringValue("error").orElseThrow(), containsString("strategy fixture-throwing threw"));
        assertThat(admin("/observe/metrics").statusCode(), is(200));
    }

    @Test
    void theStatusPageShowsWhatTheStrategyThrew() throws Exception {
        start(FixturePlugins.THROWING_STRATEGY);

        String dom = StatusPageTest.chromium("--dump-dom", "http://127.0.0.1:" + router.adminPort() + "/");

        assertThat(dom, containsString("<span id=\"strategy-error\" class=\"down\">(pick-failed: strategy"
                + " fixture-throwing threw picking a key's owner: java.lang.IllegalStateException: fixture: this picker"
                + " always throws)</span>"));
        assertThat(dom, containsString("<td class=\"num\">-<span class=\"bar\""));
    }

    @Test
    void aStrategyThatCannotBuildAPickerKeepsTheLastBackendsAndTheAdminPortSaysWhy() throws Exception {
        BackendPool pool = start(FixturePlugins.TWO_AT_MOST_STRATEGY);
        backends.add(TestBackend.start("backend-2"));
        String before = pool.snapshot().fingerprint();

        pool.update(backends.stream().map(TestBackend::backend).toList());
        pool.update(backends.stream().map(TestBackend::backend).toList().reversed());

        assertThat(pool.snapshot().backends(), hasSize(2));
        assertThat(pool.snapshot().fingerprint(), is(before));
        assertThat(post("/v1/responses", "{\"user\":\"alice\"}").statusCode(), is(200));
        HttpResponse<String> described = admin("/observe/backends");
        assertThat(described.statusCode(), is(200));
        JsonObject error = JsonParser.create(described.body()).readJsonObject().objectValue("strategy-error")
                .orElseThrow();
        assertThat(error.stringValue("error").orElseThrow(), is("picker-build-failed"));
        assertThat(error.stringValue("detail").orElseThrow(), is("strategy fixture-two-at-most threw building a"
                + " picker: java.lang.IllegalStateException: fixture: no picker for 3 backends; kept the previous"
                + " backends instead of the 3 offered"));
        List<String> said = log.messages(Level.WARNING);
        assertThat("two updates, one record", said, hasSize(1));
        assertThat(said.getFirst(), containsString("kept the previous 2 backend(s) instead of the 3 offered"));

        pool.update(backends.subList(0, 1).stream().map(TestBackend::backend).toList());

        assertThat(pool.snapshot().backends(), hasSize(1));
        assertThat(pool.buildFailure().isPresent(), is(false));
        assertThat(JsonParser.create(admin("/observe/backends").body()).readJsonObject().value("strategy-error")
                .orElseThrow().type().name(), is("NULL"));
    }

    private BackendPool start(String strategy) {
        BackendPool pool = new BackendPool(PLUGINS.strategy(strategy).orElseThrow().create(PluginOptions.empty()),
                strategy, PluginOptions.empty(), PLUGINS.strategy("round-robin").orElseThrow()
                .create(PluginOptions.empty()));
        pool.update(backends.stream().map(TestBackend::backend).toList());
        RouteTable routes = RouteTable.build(List.of(
                new RouteSpec(Set.of("POST"), "/v1/responses", List.of(new ExtractorSpec("json-field",
                        PluginOptions.of("routes[0].keys[0]", Map.of("field", "user"))))),
                new RouteSpec(Set.of("POST"), "/throwing", List.of(new ExtractorSpec(
                        FixturePlugins.THROWING_EXTRACTOR, PluginOptions.of("routes[1].keys[0]", Map.of()))))),
                PLUGINS);
        router = TestServers.start(routes, pool, TestProxySettings.DEFAULTS);
        return pool;
    }

    private HttpResponse<String> post(String path, String json) throws Exception {
        return CLIENT.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + router.port() + path))
                .POST(HttpRequest.BodyPublishers.ofString(json)).build(), HttpResponse.BodyHandlers.ofString());
    }

    private HttpResponse<String> admin(String pathAndQuery) throws Exception {
        return CLIENT.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + router.adminPort()
                + pathAndQuery)).build(), HttpResponse.BodyHandlers.ofString());
    }
}
