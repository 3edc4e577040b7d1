package io.insika.router.server;

import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;

import org.junit.jupiter.api.Test;

import io.insika.router.api.Backend;
import io.insika.router.api.PluginOptions;
import io.insika.router.server.plugin.PluginRegistry;
import io.insika.router.server.routing.BackendPool;
import io.insika.router.server.routing.DefaultRoutes;
import io.insika.router.server.routing.RouteTable;
import io.insika.router.server.testing.FixturePlugins;
import io.insika.router.server.testing.TestServers;
import io.insika.router.server.testing.TestProxySettings;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class AdminSocketTest {

    private static final HttpClient CLIENT = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();

    @Test
    void readinessFollowsThePoolAndLivenessDoesNot() throws Exception {
        BackendPool pool = pool();
        try (RouterServer server = RouterServer.start(TestServers.settings(Duration.ZERO, Duration.ZERO, ServerSettings.DEFAULT_MAX_CONNECTIONS),
                RouteTable.build(DefaultRoutes.specs(), FixturePlugins.builtIn()), pool, TestProxySettings.DEFAULTS)) {
            assertEquals(503, get(server.adminPort(), "/observe/health/ready").statusCode());
            assertEquals(200, get(server.adminPort(), "/observe/health/live").statusCode());

            pool.update(java.util.List.of(Backend.parse("http://127.0.0.1:9")));

            assertEquals(200, get(server.adminPort(), "/observe/health/ready").statusCode());
        }
    }

    // The admin server is stopped after the proxy's drain: it still answers while the
    // proxy socket drains, and must say "not ready" so that a load balancer stops sending.
    @Test
    void readinessTurnsDownAsSoonAsTheDrainStarts() throws Exception {
        try (ServerSocket silent = new ServerSocket(0, 50, InetAddress.getLoopbackAddress())) {
            BackendPool pool = pool();
            pool.update(java.util.List.of(Backend.parse("http://127.0.0.1:" + silent.getLocalPort())));
            RouterServer server = RouterServer.start(TestServers.settings(Duration.ofSeconds(3), Duration.ZERO, ServerSettings.DEFAULT_MAX_CONNECTIONS),
                    RouteTable.build(DefaultRoutes.specs(), FixturePlugins.builtIn()), pool, TestProxySettings.DEFAULTS);
            assertEquals(200, get(server.adminPort(), "/observe/health/ready").statusCode());

            CLIENT.sendAsync(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + server.port() + "/studio/x")).build(),
                    HttpResponse.BodyHandlers.discarding());
            try (Socket held = silent.accept()) { // the request reached the backend, which never answers
                Thread closing = Thread.ofVirtual().start(server::close);
                int status = 0;
                for (int i = 0; i < 100 && status != 503 && closing.isAlive(); i++) {
                    status = get(server.adminPort(), "/observe/health/ready").statusCode();
                    Thread.sleep(10);
                }
                assertEquals(503, status);
                assertTrue(closing.isAlive(), "still draining the held request when readiness said 503");
                closing.join();
            }
        }
    }

    // Kubernetes sends SIGTERM as it removes the pod from the endpoints; load balancers notice a
    // few seconds later. Requests they send meanwhile must still be served, not refused.
    @Test
    void duringTheStopDelayReadinessIsDownAndRequestsAreStillServed() throws Exception {
        BackendPool pool = pool();
        pool.update(java.util.List.of(Backend.parse("http://127.0.0.1:9")));
        RouterServer server = RouterServer.start(
                TestServers.settings(Duration.ZERO, Duration.ofSeconds(30), ServerSettings.DEFAULT_MAX_CONNECTIONS),
                RouteTable.build(DefaultRoutes.specs(), FixturePlugins.builtIn()), pool, TestProxySettings.DEFAULTS);
        int port = server.port(); // a stopped server reports -1
        Thread closing = Thread.ofVirtual().start(server::close);
        io.insika.router.server.testing.Eventually.await(Duration.ofSeconds(5),
                () -> uncheckedStatus(server.adminPort(), "/observe/health/ready") == 503, () -> "still ready");

        assertTrue(closing.isAlive(), "the delay is running");
        assertEquals(200, get(port, "/up").statusCode(), "a request arriving in the delay is served");

        server.hurry(); // asked again: the delay ends and the router stops
        closing.join(10_000);
        assertTrue(!closing.isAlive(), "stopped once hurried");
        assertThrows(java.net.ConnectException.class,
                () -> new Socket(InetAddress.getLoopbackAddress(), port).close(), "the port is closed");
    }

    private static int uncheckedStatus(int port, String path) {
        try {
            return get(port, path).statusCode();
        } catch (Exception e) {
            throw new AssertionError(e);
        }
    }

    // The admin port answers the configuration, the backends and any key's owner: an operator
    // keeps it on a narrower network than the proxy's.
    @Test
    void theAdminPortListensOnItsOwnAddressApartFromTheProxy() throws Exception {
        ServerSettings apart = new ServerSettings("127.0.0.2", 0, "127.0.0.1", 0, Duration.ZERO, Duration.ZERO,
                ServerSettings.DEFAULT_MAX_CONNECTIONS, TestServers.leanHttp1(), ServerSettings.DEFAULT_HEAD_TIMEOUT,
                ServerSettings.DEFAULT_IDLE_TIMEOUT, java.util.Optional.empty(), io.insika.router.server.proxy.Http2Settings.DEFAULTS);
        try (RouterServer server = RouterServer.start(apart, RouteTable.build(DefaultRoutes.specs(),
                FixturePlugins.builtIn()), pool(), TestProxySettings.DEFAULTS)) {
            assertEquals(200, get("127.0.0.1", server.adminPort(), "/observe/health/live").statusCode());
            assertEquals(200, get("127.0.0.2", server.port(), "/up").statusCode());

            assertThrows(java.net.ConnectException.class, () -> new Socket("127.0.0.2", server.adminPort()).close(),
                    "the admin port is not on the proxy's address");
            assertThrows(java.net.ConnectException.class, () -> new Socket("127.0.0.1", server.port()).close(),
                    "the proxy is not on the admin port's address");
        }
    }

    @Test
    void observeIsNotAnsweredOnTheProxyPort() throws Exception {
        try (RouterServer server = RouterServer.start(TestServers.settings(Duration.ZERO, Duration.ZERO, ServerSettings.DEFAULT_MAX_CONNECTIONS),
                RouteTable.build(DefaultRoutes.specs(), FixturePlugins.builtIn()), pool(), TestProxySettings.DEFAULTS)) {
            HttpResponse<String> proxied = get(server.port(), "/observe/health");

            // no backend: the proxy's retry envelope, not a health answer
            assertEquals(503, proxied.statusCode());
            assertTrue(proxied.body().contains("BackendUnavailable"), proxied.body());
        }
    }

    private static BackendPool pool() {
        PluginRegistry registry = FixturePlugins.builtIn();
        return FixturePlugins.pool(registry.strategy("ketama").orElseThrow().create(PluginOptions.empty()),
                registry.strategy("round-robin").orElseThrow().create(PluginOptions.empty()));
    }

    private static HttpResponse<String> get(int port, String path) throws Exception {
        return get("127.0.0.1", port, path);
    }

    private static HttpResponse<String> get(String host, int port, String path) throws Exception {
        return CLIENT.send(HttpRequest.newBuilder(URI.create("http://" + host + ":" + port + path)).build(),
                HttpResponse.BodyHandlers.ofString());
    }
}
