package io.insika.router.server;

import java.io.UncheckedIOException;
import java.net.BindException;
import java.util.List;
import java.util.Objects;

import io.helidon.http.HeaderValues;
import io.insika.router.server.proxy.PassThroughEncoding;
import io.helidon.webserver.CloseConnectionException;
import io.helidon.webserver.WebServer;
import io.helidon.webserver.http.FilterChain;
import io.helidon.webserver.http.HttpRouting;
import io.helidon.webserver.http.RoutingRequest;
import io.helidon.webserver.http.RoutingResponse;
import io.helidon.webserver.http1.Http1Config;
import io.helidon.webserver.observe.ObserveFeature;
import io.helidon.webserver.observe.health.HealthObserver;
import io.insika.router.server.discovery.PoolReadiness;
import io.insika.router.server.proxy.ProxyHandler;
import io.insika.router.server.proxy.ProxySettings;
import io.insika.router.server.proxy.UpgradeTunnelConfig;
import io.insika.router.server.routing.BackendPool;
import io.insika.router.server.routing.RouteTable;

/**
 * The router's web server: on the main socket {@code GET /up} answered in-process and every
 * other request proxied; on the {@value #ADMIN_SOCKET} socket, {@code /observe/health} only.
 */
public final class RouterServer implements AutoCloseable {

    /** The named socket of the observe endpoints: the main socket's catch-all would shadow them. */
    public static final String ADMIN_SOCKET = "admin";

    private final WebServer server;
    private final ProxyHandler proxy;
    private final DrainReadiness draining;

    private RouterServer(WebServer server, ProxyHandler proxy, DrainReadiness draining) {
        this.server = server;
        this.proxy = proxy;
        this.draining = draining;
    }

    /**
     * Starts listening with Helidon's default grace and an admin socket on a free port: what
     * tests of the proxy alone want.
     *
     * @param host     bind address
     * @param port     listen port; 0 picks a free one
     * @param routes   the keyed routes
     * @param pool     the backends, updated by discovery while the server runs
     * @param settings proxy settings
     * @return the running server
     */
    public static RouterServer start(String host, int port, RouteTable routes, BackendPool pool, ProxySettings settings) {
        return start(new ServerSettings(host, port, 0, ServerSettings.HELIDON_GRACE), routes, pool, settings);
    }

    /**
     * Starts listening on the proxy port and the admin port.
     *
     * @param server   addresses and shutdown grace
     * @param routes   the keyed routes
     * @param pool     the backends, updated by discovery while the server runs; also what
     *                 readiness reports on
     * @param settings proxy settings
     * @return the running server
     */
    public static RouterServer start(ServerSettings server, RouteTable routes, BackendPool pool, ProxySettings settings) {
        Objects.requireNonNull(pool, "pool");
        ProxyHandler proxy = new ProxyHandler(routes, pool, settings);
        DrainReadiness draining = new DrainReadiness();
        WebServer webServer = WebServer.builder()
                .host(server.host())
                .port(server.port())
                .shutdownHook(false)
                // Helidon's stop closes the server socket, lets busy connections finish their
                // request for this long, then interrupts them (ServerListener.suspend, 4.5.0).
                .shutdownGracePeriod(server.shutdownGrace())
                // Each response gets a new buffered stream of this size; 4 KiB (the default) is
                // mostly garbage for the small answers that dominate, and large bodies bypass it.
                .writeBufferSize(2048)
                // Bytes pass through untouched: never decode a request body or encode a response.
                .contentEncoding(PassThroughEncoding.INSTANCE)
                .addProtocol(Http1Config.builder().maxPrologueLength(8192).build())
                // WebSocket upgrades are tunnelled to the owner (UpgradeTunnel)
                .addProtocol(new UpgradeTunnelConfig(proxy))
                .routing(routing -> routing(routing, proxy))
                .putSocket(ADMIN_SOCKET, admin -> admin.host(server.host()).port(server.adminPort())
                        .shutdownGracePeriod(ServerSettings.HELIDON_GRACE))
                // only the observe feature we add, and only on the admin socket
                .featuresDiscoverServices(false)
                .addFeature(ObserveFeature.builder()
                        .observersDiscoverServices(false)
                        .addObserver(HealthObserver.builder().details(true).addCheck(new PoolReadiness(pool))
                                .addCheck(draining).build())
                        .sockets(List.of(ADMIN_SOCKET))
                        .build())
                .build()
                .start();
        if (!webServer.isRunning()) {
            // Helidon logs why (a port taken) and returns a stopped server rather than throwing
            proxy.close();
            throw new UncheckedIOException(new BindException("cannot listen on " + server.host() + " port "
                    + server.port() + " and admin port " + server.adminPort() + " (see the error logged above)"));
        }
        return new RouterServer(webServer, proxy, draining);
    }

    /** The main socket's routing: reused by tests that want the router without a socket. */
    static void routing(HttpRouting.Builder routing, ProxyHandler proxy) {
        routing.addFilter(RouterServer::closeWhenAsked)
                .get("/up", (req, res) -> res.send("OK"))
                .any(proxy);
    }

    // RFC 9112, section 9.6: a server that receives "Connection: close" closes the connection
    // after its response. Helidon 4.5 only echoes the header and waits for the client to close.
    private static void closeWhenAsked(FilterChain chain, RoutingRequest request, RoutingResponse response) {
        chain.proceed();
        if (request.headers().containsToken(HeaderValues.CONNECTION_CLOSE) && response.isSent()) {
            throw new CloseConnectionException("client asked to close");
        }
    }

    /** The port actually bound (useful when started on port 0). */
    public int port() {
        return server.port();
    }

    /** The admin socket's port: {@code /observe/health} lives there. */
    public int adminPort() {
        return server.port(ADMIN_SOCKET);
    }

    public boolean isRunning() {
        return server.isRunning();
    }

    /**
     * Stops accepting, lets in-flight requests finish up to the grace, closes the rest; readiness
     * reports not ready from the first moment ({@link DrainReadiness}).
     */
    @Override
    public void close() {
        draining.drain();
        server.stop();
        proxy.close();
    }
}
