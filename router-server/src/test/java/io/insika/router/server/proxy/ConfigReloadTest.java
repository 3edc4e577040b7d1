package io.insika.router.server.proxy;

import java.io.IOException;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.Socket;
import java.net.URI;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.logging.Level;
import java.util.stream.Collectors;

import io.helidon.json.JsonObject;
import io.helidon.json.JsonParser;
import io.insika.router.server.ConfigReload;
import io.insika.router.server.Router;
import io.insika.router.server.config.RouterConfig;
import io.insika.router.server.config.RouterConfigLoader;
import io.insika.router.server.plugin.PluginRegistry;
import io.insika.router.server.testing.Eventually;
import io.insika.router.server.testing.FixturePlugins;
import io.insika.router.server.testing.LogCapture;
import io.insika.router.server.testing.RawHttp;
import io.insika.router.server.testing.Scrape;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import static org.hamcrest.MatcherAssert.assertThat;
import static org.hamcrest.Matchers.containsString;
import static org.hamcrest.Matchers.everyItem;
import static org.hamcrest.Matchers.hasItem;
import static org.hamcrest.Matchers.is;
import static org.hamcrest.Matchers.isIn;
import static org.hamcrest.Matchers.not;
import static org.hamcrest.Matchers.startsWith;

/**
 * SIGHUP's work, done in-process on a real router: the file is read again and applied whole
 * (routes, static backends and their limits, timeouts) or refused whole, and what was in flight
 * when it changed finishes with the configuration it began with.
 */
@Timeout(60)
class ConfigReloadTest {

    private static final String CHAT_BY_HEADER = """
            routes:
              - path: /chat/*
                keys: [ { type: header, name: X-Session } ]
            """;
    private static final String CHAT_BY_QUERY = """
            routes:
              - path: /chat/*
                keys: [ { type: query, name: sid } ]
            """;

    @TempDir
    Path dir;

    private final List<AutoCloseable> open = new ArrayList<>();
    private Path yaml;
    private Router router;
    private ConfigReload reload;

    @AfterEach
    void stop() throws Exception {
        if (router != null) {
            router.close();
        }
        for (AutoCloseable it : open) {
            it.close();
        }
    }

    @Test
    void newRoutesAndBackendsApplyToTheNextRequestWithoutARestart() throws Exception {
        TestBackend a = backend("alpha");
        TestBackend b = backend("bravo");
        TestBackend c = backend("charlie");
        start(statics(a, b) + CHAT_BY_HEADER);
        String ringBefore = observeBackends().stringValue("ring-fingerprint").orElseThrow();
        Map<String, String> owners = new HashMap<>();
        for (int i = 0; i < 30; i++) {
            owners.put("s" + i, get("/chat/x", "X-Session", "s" + i).headers().firstValue("X-Backend").orElseThrow());
        }
        assertThat(owners.values(), everyItem(isIn(List.of("alpha", "bravo"))));

        write(statics(a, b, c) + CHAT_BY_QUERY);
        assertThat(reload.reload(), is(ConfigReload.Result.APPLIED));

        Map<String, String> after = new HashMap<>();
        for (int i = 0; i < 30; i++) {
            String owner = get("/chat/x?sid=s" + i).headers().firstValue("X-Backend").orElseThrow();
            after.put("s" + i, owner);
            // keyed by the new carrier: every request of the session reaches the same backend
            assertThat(get("/chat/y?sid=s" + i).headers().firstValue("X-Backend").orElseThrow(), is(owner));
        }
        assertThat("the third backend owns some sessions now", after.values(), hasItem("charlie"));
        long moved = owners.keySet().stream().filter(key -> !owners.get(key).equals(after.get(key))).count();
        assertThat("only the sessions charlie took moved (ketama)", moved,
                is(after.values().stream().filter("charlie"::equals).count()));
        JsonObject backends = observeBackends();
        assertThat(backends.arrayValue("backends").orElseThrow().values().size(), is(3));
        assertThat(backends.stringValue("ring-fingerprint").orElseThrow(), not(ringBefore));
        assertThat(Scrape.of(router.adminPort()).sum("insika_router_config_reloads_total", "result", "applied"),
                is(1.0));
    }

    @Test
    void anInvalidFileIsRefusedWholeWithEveryProblemLoggedAndTheRunningOneKept() throws Exception {
        TestBackend a = backend("alpha");
        TestBackend b = backend("bravo");
        start(statics(a) + CHAT_BY_HEADER);
        try (LogCapture log = LogCapture.of(ConfigReload.class)) {
            // a valid new backend and route beside two bad values: none of it may apply
            write(statics(a, b) + CHAT_BY_QUERY + """
                    proxy: { backend-timeout: -3s, body-max-bytes: lots }
                    """);

            assertThat(reload.reload(), is(ConfigReload.Result.INVALID));

            List<String> warnings = log.formatted(Level.WARNING);
            assertThat(warnings, hasItem(startsWith("reload refused, keeping the running configuration: the file has 2")));
            assertThat(warnings, hasItem(containsString("proxy.backend-timeout: [-3s]")));
            assertThat(warnings, hasItem(containsString("proxy.body-max-bytes: [lots]")));
        }
        assertThat(observeBackends().arrayValue("backends").orElseThrow().values().size(), is(1));
        assertThat(get("/chat/x", "X-Session", "kept").statusCode(), is(200));
        Scrape scrape = Scrape.of(router.adminPort());
        assertThat(scrape.sum("insika_router_config_reloads_total", "result", "invalid"), is(1.0));
        assertThat(scrape.sum("insika_router_config_last_reload_successful"), is(0.0));

        write(statics(a, b) + CHAT_BY_QUERY);
        assertThat(reload.reload(), is(ConfigReload.Result.APPLIED));
        assertThat(Scrape.of(router.adminPort()).sum("insika_router_config_last_reload_successful"), is(1.0));
        assertThat(observeBackends().arrayValue("backends").orElseThrow().values().size(), is(2));
    }

    @Test
    void theStatusPageSaysWhenTheLastReloadWasRefused() throws Exception {
        TestBackend a = backend("alpha");
        start(statics(a) + CHAT_BY_HEADER);
        write(statics(a) + CHAT_BY_QUERY);
        assertThat(reload.reload(), is(ConfigReload.Result.APPLIED));
        write(statics(a) + "proxy: { backend-timeout: never }\n");
        assertThat(reload.reload(), is(ConfigReload.Result.INVALID));

        String dom = StatusPageTest.chromium("--dump-dom", "http://127.0.0.1:" + router.adminPort() + "/");

        assertThat(dom, containsString("<span id=\"reloads\" class=\"down\">applied 1, invalid 1 (the last was"
                + " refused: the running configuration is not the file's)</span>"));
    }

    @Test
    void aKeyOnlyARestartCanChangeRefusesTheReloadAndSaysWhich() throws Exception {
        TestBackend a = backend("alpha");
        TestBackend b = backend("bravo");
        start(statics(a) + CHAT_BY_HEADER);
        try (LogCapture log = LogCapture.of(ConfigReload.class)) {
            write(statics(a, b) + CHAT_BY_HEADER + """
                    proxy: { max-requests: 7 }
                    health: { down-time: 9s }
                    """);

            assertThat(reload.reload(), is(ConfigReload.Result.REFUSED));

            assertThat(log.formatted(Level.WARNING), hasItem(
                    "reload refused, keeping the running configuration: only a restart changes"
                            + " health.down-time: 2s -> 9s; proxy.max-requests: 1024 -> 7"));
        }
        assertThat("the new backend is not taken either: all or nothing",
                observeBackends().arrayValue("backends").orElseThrow().values().size(), is(1));
        assertThat(Scrape.of(router.adminPort()).sum("insika_router_config_reloads_total", "result", "refused"),
                is(1.0));
    }

    @Test
    void aStrategyChangeIsRefusedUnlessTheFileAllowsItOnReload() throws Exception {
        TestBackend a = backend("alpha");
        TestBackend b = backend("bravo");
        start(statics(a, b) + CHAT_BY_HEADER);
        String ketamaRing = observeBackends().stringValue("ring-fingerprint").orElseThrow();
        try (LogCapture log = LogCapture.of(ConfigReload.class)) {
            write("strategy: { name: rendezvous }\n" + statics(a, b) + CHAT_BY_HEADER);

            assertThat(reload.reload(), is(ConfigReload.Result.REFUSED));

            assertThat(log.formatted(Level.WARNING), hasItem(
                    "reload refused, keeping the running configuration: the strategy would change"
                            + " (strategy.name: ketama -> rendezvous; strategy.options: {compat=none} -> {}), which moves"
                            + " most sessions to other backends;"
                            + " set strategy.allow-change-on-reload: true in the file to apply it on reload, or"
                            + " restart"));
        }
        assertThat(observeBackends().stringValue("strategy").orElseThrow(), is("ketama"));

        write("strategy: { name: rendezvous, allow-change-on-reload: true }\n" + statics(a, b) + CHAT_BY_HEADER);
        assertThat(reload.reload(), is(ConfigReload.Result.APPLIED));

        JsonObject backends = observeBackends();
        assertThat(backends.stringValue("strategy").orElseThrow(), is("rendezvous"));
        assertThat(backends.stringValue("ring-fingerprint").orElseThrow(), not(ketamaRing));
    }

    @Test
    void aStrategyThatThrowsBuildingItsPickerIsRefusedAndTheRunningOneKept() throws Exception {
        TestBackend a = backend("alpha");
        TestBackend b = backend("bravo");
        TestBackend c = backend("charlie");
        start(statics(a, b, c) + CHAT_BY_HEADER, FixturePlugins.registry());
        String ring = observeBackends().stringValue("ring-fingerprint").orElseThrow();
        try (LogCapture log = LogCapture.of(ConfigReload.class)) {
            write("strategy: { name: " + FixturePlugins.TWO_AT_MOST_STRATEGY + ", allow-change-on-reload: true }\n"
                    + statics(a, b, c) + CHAT_BY_HEADER);

            assertThat(reload.reload(), is(ConfigReload.Result.REFUSED));

            assertThat(log.messages(Level.WARNING), hasItem("reload refused, keeping the running configuration:"
                    + " strategy fixture-two-at-most threw building a picker: java.lang.IllegalStateException:"
                    + " fixture: no picker for 3 backends"));
        }
        JsonObject backends = observeBackends();
        assertThat(backends.stringValue("strategy").orElseThrow(), is("ketama"));
        assertThat(backends.stringValue("ring-fingerprint").orElseThrow(), is(ring));
        assertThat(get("/chat/x", "X-Session", "one").statusCode(), is(200));
    }

    @Test
    void theSameFileAgainChangesNothing() throws Exception {
        TestBackend a = backend("alpha");
        start(statics(a) + CHAT_BY_HEADER);

        assertThat(reload.reload(), is(ConfigReload.Result.UNCHANGED));
        assertThat(Scrape.of(router.adminPort()).sum("insika_router_config_reloads_total", "result", "unchanged"),
                is(1.0));
    }

    @Test
    void aRequestInFlightFinishesOnTheBackendItBeganWithAfterAReloadRemovedIt() throws Exception {
        TestBackend a = backend("alpha");
        TestBackend b = backend("bravo");
        start(statics(a) + CHAT_BY_HEADER);
        CompletableFuture<HttpResponse<String>> held = RouterFixture.CLIENT.sendAsync(
                request("/chat/held").header("X-Session", "held").header("X-Hold", "1").build(),
                HttpResponse.BodyHandlers.ofString());
        Eventually.await(Duration.ofSeconds(10), () -> a.holding.get() == 1, () -> "alpha holds " + a.holding);

        write(statics(b) + CHAT_BY_HEADER);
        assertThat(reload.reload(), is(ConfigReload.Result.APPLIED));
        assertThat(get("/chat/x", "X-Session", "held").headers().firstValue("X-Backend").orElseThrow(), is("bravo"));

        a.holdRelease.release();
        HttpResponse<String> answer = held.get();
        assertThat(answer.statusCode(), is(200));
        assertThat(answer.body(), startsWith("alpha "));
    }

    @Test
    void aTunnelOpenAcrossAReloadKeepsFlowingAndNewOnesFollowTheNewBackends() throws Exception {
        EchoBackend first = echo("engine-1");
        EchoBackend second = echo("engine-2");
        String sockets = """
                routes:
                  - path: /socket.io/*
                    keys: [ { type: query, name: stickyId } ]
                """;
        start("backends: { static: [ \"%s\" ] }\n".formatted(first.backend().uri()) + sockets);
        try (Socket tunnel = upgrade("kept")) {
            assertThat(RawHttp.readHead(tunnel.getInputStream()), startsWith("HTTP/1.1 101"));
            assertThat(new String(tunnel.getInputStream().readNBytes(8), StandardCharsets.US_ASCII), is("engine-1"));

            write("backends: { static: [ \"%s\" ] }\n".formatted(second.backend().uri()) + sockets
                    + "proxy: { backend-timeout: 2s }\n");
            assertThat(reload.reload(), is(ConfigReload.Result.APPLIED));

            OutputStream out = tunnel.getOutputStream();
            out.write("after the reload".getBytes(StandardCharsets.US_ASCII));
            out.flush();
            assertThat(new String(tunnel.getInputStream().readNBytes(16), StandardCharsets.US_ASCII),
                    is("after the reload"));
            try (Socket next = upgrade("kept")) {
                assertThat(RawHttp.readHead(next.getInputStream()), startsWith("HTTP/1.1 101"));
                assertThat(new String(next.getInputStream().readNBytes(8), StandardCharsets.US_ASCII),
                        is("engine-2"));
            }
            out.write("still here".getBytes(StandardCharsets.US_ASCII));
            out.flush();
            assertThat(new String(tunnel.getInputStream().readNBytes(10), StandardCharsets.US_ASCII), is("still here"));
        }
    }

    @Test
    void loweredSlotsAndAShorterBackendTimeoutApplyToRequestsBegunAfterTheReload() throws Exception {
        TestBackend a = backend("alpha");
        start(statics(a) + CHAT_BY_HEADER);
        CompletableFuture<HttpResponse<String>> held = RouterFixture.CLIENT.sendAsync(
                request("/chat/held").header("X-Session", "one").header("X-Hold", "1").build(),
                HttpResponse.BodyHandlers.ofString());
        Eventually.await(Duration.ofSeconds(10), () -> a.holding.get() == 1, () -> "alpha holds " + a.holding);

        write("backends: { max-requests: 1, static: [ \"%s\" ] }\n".formatted(a.backend().uri()) + CHAT_BY_HEADER
                + "proxy: { backend-timeout: 500ms }\n");
        assertThat(reload.reload(), is(ConfigReload.Result.APPLIED));
        JsonObject reported = admin("/observe/config");
        assertThat("the admin port reports the configuration now running",
                reported.objectValue("keys").orElseThrow().stringValue("proxy.backend-timeout").orElseThrow(),
                is("500ms"));
        assertThat(reported.stringValue("sha256").orElseThrow(), is(io.insika.router.server.config.ConfigDigest.of(
                Files.readAllBytes(yaml))));

        HttpResponse<String> full = get("/chat/x", "X-Session", "two");
        assertThat("the held request keeps alpha's one slot", full.statusCode(), is(503));
        assertThat(full.body(), containsString("retry"));
        a.holdRelease.release();
        assertThat("the held request outlived the new 500 ms timeout: it began with 10 s",
                held.get().statusCode(), is(200));

        HttpResponse<String> silent = get("/silent", "X-Session", "three");
        assertThat("a request begun after the reload times out at 500 ms, not 10 s", silent.statusCode(), is(504));
    }

    // -- the router, its file and its backends

    private void start(String body) throws IOException {
        start(body, FixturePlugins.builtIn());
    }

    private void start(String body, PluginRegistry plugins) throws IOException {
        write(body);
        RouterConfigLoader loader = new RouterConfigLoader(plugins);
        RouterConfig config = loader.load(Optional.of(yaml), Map.of());
        router = Router.start(config, plugins);
        reload = new ConfigReload(router, () -> loader.load(Optional.of(yaml), Map.of()));
    }

    private void write(String body) throws IOException {
        yaml = dir.resolve("router.yaml");
        Files.writeString(yaml, "server: { host: 127.0.0.1, port: 0, admin-port: 0 }\n" + body);
    }

    private static String statics(TestBackend... backends) {
        return "backends: { static: [ " + java.util.Arrays.stream(backends)
                .map(backend -> "\"" + backend.backend().uri() + "\"").collect(Collectors.joining(", ")) + " ] }\n";
    }

    private TestBackend backend(String name) {
        TestBackend backend = TestBackend.start(name);
        open.add(backend);
        return backend;
    }

    private EchoBackend echo(String name) throws IOException {
        EchoBackend backend = new EchoBackend(name);
        open.add(backend);
        return backend;
    }

    private HttpRequest.Builder request(String path) {
        return HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + router.port() + path))
                .timeout(Duration.ofSeconds(20));
    }

    private HttpResponse<String> get(String path, String... headers) throws Exception {
        HttpRequest.Builder request = request(path);
        if (headers.length > 0) {
            request.headers(headers);
        }
        return RouterFixture.CLIENT.send(request.build(), HttpResponse.BodyHandlers.ofString());
    }

    private JsonObject observeBackends() throws Exception {
        return admin("/observe/backends");
    }

    private JsonObject admin(String path) throws Exception {
        HttpResponse<String> answer = RouterFixture.CLIENT.send(HttpRequest.newBuilder(
                URI.create("http://127.0.0.1:" + router.adminPort() + path)).build(),
                HttpResponse.BodyHandlers.ofString());
        assertThat(answer.statusCode(), is(200));
        return JsonParser.create(answer.body()).readJsonObject();
    }

    private Socket upgrade(String sticky) throws IOException {
        Socket socket = new Socket(InetAddress.getLoopbackAddress(), router.port());
        socket.setSoTimeout(10_000);
        socket.getOutputStream().write(("GET /socket.io/?EIO=4&transport=websocket&stickyId=" + sticky
                + " HTTP/1.1\r\nHost: router\r\nConnection: Upgrade\r\nUpgrade: websocket\r\n"
                + "Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n\r\n")
                .getBytes(StandardCharsets.US_ASCII));
        return socket;
    }
}
