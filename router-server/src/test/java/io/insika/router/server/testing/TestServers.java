package io.insika.router.server.testing;

import java.time.Duration;

import io.insika.router.server.RouterServer;
import io.insika.router.server.ServerSettings;
import io.insika.router.server.proxy.ProxySettings;
import io.insika.router.server.routing.BackendPool;
import io.insika.router.server.routing.RouteTable;

/**
 * Routers for tests, on a free loopback port, framing HTTP/1 the way this test run asks: the
 * suite runs once with the router's lean HTTP/1 (the default) and once more with
 * {@code -Dinsika.test.lean-http1=false}, Helidon's for every request, so each behaviour is
 * pinned on both paths.
 */
public final class TestServers {

    private TestServers() {
    }

    /** Whether this run's routers frame plain requests themselves. */
    public static boolean leanHttp1() {
        return !"false".equals(System.getProperty("insika.test.lean-http1"));
    }

    /** Loopback, any free ports, Helidon's default grace, no stop delay. */
    public static ServerSettings settings() {
        return settings(ServerSettings.HELIDON_GRACE, Duration.ZERO, ServerSettings.DEFAULT_MAX_CONNECTIONS);
    }

    public static ServerSettings settings(Duration grace, Duration stopDelay, int maxConnections) {
        return new ServerSettings("127.0.0.1", 0, "127.0.0.1", 0, grace, stopDelay, maxConnections, leanHttp1(),
                ServerSettings.DEFAULT_HEAD_TIMEOUT, ServerSettings.DEFAULT_IDLE_TIMEOUT, java.util.Optional.empty(), io.insika.router.server.proxy.Http2Settings.DEFAULTS);
    }

    /** Loopback, any free ports, serving this TLS. */
    public static ServerSettings settings(io.insika.router.server.tls.TlsSettings tls) {
        ServerSettings plain = settings();
        return new ServerSettings(plain.host(), plain.port(), plain.adminHost(), plain.adminPort(), plain.shutdownGrace(),
                plain.stopDelay(), plain.maxConnections(), plain.leanHttp1(), plain.headTimeout(), plain.idleTimeout(),
                java.util.Optional.of(tls), plain.http2());
    }

    /** Loopback, any free ports, with these limits on client connections. */
    public static ServerSettings settings(int maxConnections, Duration headTimeout, Duration idleTimeout) {
        return new ServerSettings("127.0.0.1", 0, "127.0.0.1", 0, ServerSettings.HELIDON_GRACE, Duration.ZERO,
                maxConnections, leanHttp1(), headTimeout, idleTimeout, java.util.Optional.empty(), io.insika.router.server.proxy.Http2Settings.DEFAULTS);
    }

    /** Loopback, any free ports, with these limits on client connections and HTTP/2 streams. */
    public static ServerSettings settings(int maxConnections, Duration headTimeout, Duration idleTimeout,
                                          io.insika.router.server.proxy.Http2Settings http2) {
        return new ServerSettings("127.0.0.1", 0, "127.0.0.1", 0, ServerSettings.HELIDON_GRACE, Duration.ZERO,
                maxConnections, leanHttp1(), headTimeout, idleTimeout, java.util.Optional.empty(), http2);
    }

    public static RouterServer start(RouteTable routes, BackendPool pool, ProxySettings settings) {
        return RouterServer.start(settings(), routes, pool, settings);
    }
}
