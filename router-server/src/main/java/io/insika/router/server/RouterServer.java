package io.insika.router.server;

import java.io.UncheckedIOException;
import java.net.BindException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;

import io.helidon.common.socket.SocketOptions;
import io.helidon.http.HeaderNames;
import io.helidon.http.HeaderValues;
import io.helidon.webserver.CloseConnectionException;
import io.helidon.webserver.WebServer;
import io.helidon.webserver.WebServerConfig;
import io.helidon.webserver.http.FilterChain;
import io.helidon.webserver.http.HttpRouting;
import io.helidon.webserver.http.RoutingRequest;
import io.helidon.webserver.http.RoutingResponse;
import io.helidon.webserver.http1.Http1Config;
import io.helidon.webserver.observe.ObserveFeature;
import io.helidon.webserver.observe.health.HealthObserver;
import io.helidon.webserver.spi.ProtocolConfig;
import io.insika.router.server.backends.BackendStates;
import io.insika.router.server.config.RouterConfig;
import io.insika.router.server.backends.HealthChecker;
import io.insika.router.server.discovery.PoolReadiness;
import io.insika.router.server.metrics.MetricsEndpoint;
import io.insika.router.server.metrics.RouterMetrics;
import io.insika.router.server.proxy.Http2Selector;
import io.insika.router.server.proxy.Http2Traffic;
import io.insika.router.server.proxy.OpenLimit;
import io.insika.router.server.proxy.LeanHttp1Selector;
import io.insika.router.server.proxy.ListenerSocketOptions;
import io.insika.router.server.proxy.PassThroughEncoding;
import io.insika.router.server.proxy.ProxyHandler;
import io.insika.router.server.proxy.ProxySettings;
import io.insika.router.server.proxy.UnreadableHeadAnswer;
import io.insika.router.server.proxy.UnclaimedConnections;
import io.insika.router.server.proxy.UpgradeTunnelConfig;
import io.insika.router.server.routing.BackendPool;
import io.insika.router.server.routing.RouteTable;
import io.insika.router.server.tls.ListenerTls;
import io.insika.router.server.tls.TlsMaterial;

/**
 * The router's web server: on the main socket {@code GET /up} answered in-process and every
 * other request proxied; on the admin port (a server of its own, so that the proxy's catch-all
 * cannot shadow it and it outlives the proxy's drain), {@code /observe/health},
 * {@code /observe/metrics}, {@code /observe/owner} and {@code /observe/backends} only.
 */
public final class RouterServer implements AutoCloseable {

    // the router's liveness, answered in-process on the proxy port
    private static final String UP = "/up";
    // Helidon's defaults but TCP_NODELAY, as nginx and HAProxy set it on client connections
    private static final SocketOptions CLIENT_SOCKETS = SocketOptions.builder().tcpNoDelay(true).build();

    private final WebServer server;
    private final WebServer admin;
    private final ProxyHandler proxy;
    private final Optional<ListenerTls> tls;
    private final HealthChecker checker; // null without health.path
    private final DrainReadiness draining;
    private final RouterMetrics metrics;
    private final Duration stopDelay;
    private final CountDownLatch hurry = new CountDownLatch(1);
    private final UnclaimedConnections unclaimed;

    private RouterServer(WebServer server, WebServer admin, ProxyHandler proxy, Optional<ListenerTls> tls,
                         HealthChecker checker, DrainReadiness draining, RouterMetrics metrics, Duration stopDelay,
                         UnclaimedConnections unclaimed) {
        this.tls = tls;
        this.unclaimed = unclaimed;
        this.checker = checker;
        this.metrics = metrics;
        this.stopDelay = stopDelay;
        this.server = server;
        this.admin = admin;
        this.proxy = proxy;
        this.draining = draining;
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
        return start(server, routes, pool, settings, null);
    }

    /**
     * Starts listening on the proxy port and the admin port, the admin port also answering
     * {@code /observe/config}.
     *
     * @param server   addresses and shutdown grace
     * @param routes   the keyed routes
     * @param pool     the backends, updated by discovery while the server runs
     * @param settings proxy settings
     * @param config   the configuration the router runs with now, for {@code /observe/config};
     *                 {@code null} leaves that endpoint out
     * @return the running server
     */
    public static RouterServer start(ServerSettings server, RouteTable routes, BackendPool pool, ProxySettings settings,
                                     Supplier<RouterConfig> config) {
        Objects.requireNonNull(pool, "pool");
        RouterMetrics metrics = new RouterMetrics(routes.routes(), pool::snapshot, Version.current());
        BackendStates states = new BackendStates(settings.capacity(), settings.health());
        metrics.backendStates(() -> states.current(pool.snapshot().backends()));
        ProxyHandler proxy = new ProxyHandler(routes, pool, states, settings, metrics);
        DrainReadiness draining = new DrainReadiness();
        OpenLimit connections = new OpenLimit(OpenLimit.connectionLimit(server.maxConnections()));
        metrics.gauge("client_connections", "Client connections open on the proxy port, in slots of"
                + " server.max-connections: an HTTP/2 connection takes several", connections::open);
        metrics.gauge("client_connections_limit", "server.max-connections: past it a client gets the retry envelope",
                connections::limit);
        metrics.counter("client_connections_refused", "Client connections answered with the retry envelope (or /up)"
                + " and closed because the proxy port held server.max-connections", connections::refused);
        Optional<ListenerTls> tls = server.tls().map(on -> ListenerTls.of(on.material()));
        // Two servers rather than two sockets of one: Helidon 4.5 stops a server's sockets one
        // after the other in an unspecified order (LoomServer.stopIt walks a Map.copyOf), and the
        // admin socket must keep answering "not ready" for the whole drain of the proxy socket.
        WebServerConfig.Builder adminConfig = WebServer.builder();
        if (tls.isPresent() && server.tls().orElseThrow().admin()) {
            // over plain sockets as the proxy's: Helidon's NIO TLS asks each peer's host name
            // (a reverse DNS lookup per connection) to make its engine
            adminConfig.tls(tls.get().admin()).useNio(false);
        }
        WebServer admin = adminConfig
                .host(server.adminHost())
                .port(server.adminPort())
                .connectionOptions(CLIENT_SOCKETS)
                .shutdownHook(false)
                .shutdownGracePeriod(ServerSettings.HELIDON_GRACE)
                // HTTP/1.1 only, as before HTTP/2 was on the class path: probes and scrapers speak it
                .protocolsDiscoverServices(false)
                .addProtocol(Http1Config.create())
                // only the observe feature we add
                .featuresDiscoverServices(false)
                .routing(routing -> {
                    routing.get(MetricsEndpoint.PATH, new MetricsEndpoint(metrics))
                            .get(OwnerEndpoint.PATH, new OwnerEndpoint(pool))
                            .get(BackendsEndpoint.PATH, new BackendsEndpoint(pool, states))
                            .get(StatusPage.PATH, new StatusPage());
                    if (config != null) {
                        routing.get(ConfigEndpoint.PATH, new ConfigEndpoint(config));
                    }
                })
                .addFeature(ObserveFeature.builder()
                        .observersDiscoverServices(false)
                        .addObserver(HealthObserver.builder().details(true).addCheck(new PoolReadiness(pool))
                                .addCheck(draining).addCheck(new ConnectionReadiness(connections)).build())
                        .build())
                .build()
                .start();
        if (!admin.isRunning()) {
            proxy.close();
            throw cannotListen(server.adminHost(), server.adminPort());
        }
        Http1Config http1 = Http1Config.builder().maxPrologueLength(8192).build();
        UnclaimedConnections unclaimed = UnclaimedConnections.start(server.headTimeout(), idleCheckPeriod(server));
        metrics.counter("client_connections_silent", "Client connections closed because nothing that names a protocol"
                + " (a request, a TLS handshake) arrived within server.head-timeout of their accept", unclaimed::closed);
        WebServerConfig.Builder mainConfig = proxyListener(server, unclaimed)
                .routing(routing -> routing(routing, proxy));
        // Over TLS the lean path reads and writes through Helidon's TLS socket as it does through
        // a plain one: the same selector serves both (TlsListenerTest, the corpus over TLS)
        tls.ifPresent(listenerTls -> mainConfig.tls(listenerTls.proxy()));
        // WebSocket upgrades are tunnelled to the owner (UpgradeTunnel)
        List<ProtocolConfig> protocols = new ArrayList<>(List.of(http1));
        protocols.addAll(UpgradeTunnelConfig.forEverySpelling(proxy));
        protocols.forEach(mainConfig::addProtocol);
        // Asked before Helidon's own HTTP/1 selector, which it hands connections over to; without
        // lean-http1 it keeps only HTTP/1.0 requests, which Helidon does not serve.
        LeanHttp1Selector lean = new LeanHttp1Selector(proxy, http1, protocols, UP, server, connections);
        metrics.counter("http1_handovers", "Client connections handed to Helidon's HTTP/1 at their first request"
                + " outside the plain subset the router frames itself", lean::handovers);
        mainConfig.addConnectionSelector(unclaimed.claiming(lean));
        if (server.http2().enabled()) {
            // ALPN h2 over TLS, the prior-knowledge preface on plain sockets; never Upgrade: h2c,
            // whose upgrader Helidon would add only for an Http2Config among the protocols
            Http2Traffic http2 = new Http2Traffic();
            http2Metrics(metrics, http2);
            mainConfig.addConnectionSelector(unclaimed.claiming(new Http2Selector(server.http2(), server.headTimeout(),
                    connections, http2)));
        }
        WebServer main = mainConfig.build().start();
        if (!main.isRunning()) {
            admin.stop();
            unclaimed.close();
            proxy.close();
            throw cannotListen(server.host(), server.port());
        }
        HealthChecker checker = settings.health().path().isPresent()
                ? HealthChecker.start(settings.health(), () -> pool.snapshot().backends(), states)
                : null;
        return new RouterServer(main, admin, proxy, tls, checker, draining, metrics, server.stopDelay(), unclaimed);
    }

    /**
     * The proxy socket's listener settings, before its routing and protocols: what a proxy needs
     * of Helidon's listener differs from its defaults (ProxyListenerTest).
     */
    static WebServerConfig.Builder proxyListener(ServerSettings server, UnclaimedConnections unclaimed) {
        return WebServer.builder()
                .host(server.host())
                .port(server.port())
                // Every answer leaves as soon as it is written: with Nagle's algorithm on, a write
                // after one the client has not acknowledged yet (the end of a chunked body sent
                // apart from its last data) waits for the client's delayed ACK, ~40 ms.
                // and each accepted connection is closed if no protocol claims it in head-timeout
                .connectionOptions(new ListenerSocketOptions(CLIENT_SOCKETS, unclaimed))
                .shutdownHook(false)
                // Helidon's stop closes the server socket, lets busy connections finish their
                // request for this long, then interrupts them (ServerListener.suspend, 4.5.0).
                .shutdownGracePeriod(server.shutdownGrace())
                // Past it Helidon accepts no more until a connection closes (ListenerConfig 4.5.0);
                // the reserve above max-connections is answered at once and closed (LeanHttp1Selector)
                .maxTcpConnections(OpenLimit.connectionLimit(server.maxConnections()) + LeanHttp1Selector.OVER_LIMIT_RESERVE)
                // Helidon closes a connection whose idleTime() passed this: the lean connection's
                // says how long it waited for a request, or that its head outlasted head-timeout
                .idleConnectionTimeout(server.idleTimeout())
                .idleConnectionPeriod(idleCheckPeriod(server))
                // No buffered stream per response (0 skips it, Http1ServerResponse 4.5.0): the relay
                // writes whole reads of the backend, and Helidon sends the head with the first of
                // them in one write. The 2 KiB stream it would add was 12% of the bytes allocated
                // per request (async-profiler -e alloc, bench/sessions.lua).
                .writeBufferSize(0)
                // Helidon's socket over the channel's streams (PlainSocket) rather than its NIO one:
                // NioSocket keeps two 8 KiB heap buffers per connection for as long as it is open,
                // PlainSocket one, and writes the caller's bytes without staging them. A kept-alive
                // client connection held 22.3 KiB of live heap with NioSocket, 15.4 KiB without
                // (2000 idle connections, GC.class_histogram); the CPU per request is the same
                // (bench/cpu-ab.sh, 2026-12-02). Both block the same way on a virtual thread.
                .useNio(false)
                // Bytes pass through untouched: never decode a request body or encode a response.
                .contentEncoding(PassThroughEncoding.INSTANCE)
                // A head Helidon fails to read is the client's fault: 400, not 500 and a stack trace
                .directHandlers(UnreadableHeadAnswer.handlers())
                .featuresDiscoverServices(false)
                // Only the protocols added here: with helidon-webserver-http2 on the class path,
                // discovery would add Helidon's own HTTP/2 selector (uncounted, unclaimed) and h2c
                .protocolsDiscoverServices(false);
    }

    // Each timeout fires within a quarter of its length past it
    private static Duration idleCheckPeriod(ServerSettings server) {
        long quarter = Math.min(server.headTimeout().toMillis(), server.idleTimeout().toMillis()) / 4;
        return Duration.ofMillis(Math.max(50, Math.min(5_000, quarter)));
    }

    private static void http2Metrics(RouterMetrics metrics, Http2Traffic http2) {
        metrics.counter("http2_connections", "HTTP/2 client connections served (one past the connection limit is"
                + " closed at once, uncounted)", http2::connections);
        metrics.counter("http2_streams", "HTTP/2 streams clients opened: each a request", http2::streams);
        metrics.counter("http2_client_resets", "HTTP/2 streams clients reset (RST_STREAM); near http2_streams,"
                + " with GOAWAYs of ENHANCE_YOUR_CALM, a rapid-reset attack", http2::resets);
        metrics.counter("http2_goaways", "GOAWAY frames the router sent HTTP/2 clients, by error code (RFC 9113,"
                + " section 7)", "error", http2.goaways());
    }

    // Helidon logs why (a port taken) and returns a stopped server rather than throwing
    private static UncheckedIOException cannotListen(String host, int port) {
        return new UncheckedIOException(new BindException(
                "cannot listen on " + host + " port " + port + " (see the error logged above)"));
    }

    /** The main socket's routing: reused by tests that want the router without a socket. */
    static void routing(HttpRouting.Builder routing, ProxyHandler proxy) {
        routing.addFilter(RouterServer::closeWhenAsked)
                .get(UP, (req, res) -> res.send("OK"))
                .any(proxy);
    }

    // RFC 9112, section 9.6: a server that receives "Connection: close" closes the connection
    // after its response. Helidon 4.5 only echoes the header and waits for the client to close.
    // containsToken tokenizes through a stream even when there is no Connection field (~1% of a
    // proxied request's CPU), so it runs only when there is one.
    private static void closeWhenAsked(FilterChain chain, RoutingRequest request, RoutingResponse response) {
        chain.proceed();
        if (request.headers().contains(HeaderNames.CONNECTION)
                && request.headers().containsToken(HeaderValues.CONNECTION_CLOSE) && response.isSent()) {
            throw new CloseConnectionException("client asked to close");
        }
    }

    /**
     * Proxies requests and tunnels begun from now on with these routes and settings (a reload);
     * those in flight keep theirs.
     */
    public void reconfigure(RouteTable routes, ProxySettings settings) {
        proxy.reconfigure(routes, settings);
    }

    /**
     * New TLS handshakes on the proxy port (and the admin port, if it serves TLS) use this
     * material from now on; open connections keep theirs (a reload of changed certificate files).
     *
     * @param material read and checked, asking for client certificates exactly when the running
     *                 material does
     * @throws IllegalStateException if the router serves plain HTTP
     */
    public void reloadTls(TlsMaterial material) {
        tls.orElseThrow(() -> new IllegalStateException("the router serves plain HTTP: only a restart starts TLS"))
                .reload(material);
    }

    /** Whether the proxy port serves TLS. */
    public boolean servesTls() {
        return tls.isPresent();
    }

    /** The port actually bound (useful when started on port 0). */
    public int port() {
        return server.port();
    }

    /** The admin port: {@code /observe/health}, {@code /observe/metrics} and {@code /observe/owner}. */
    public int adminPort() {
        return admin.port();
    }

    /** What {@code /observe/metrics} on the admin port exports. */
    public RouterMetrics metrics() {
        return metrics;
    }

    /** Ends a running (or the next) stop delay at once. */
    public void hurry() {
        hurry.countDown();
    }

    /** How long a stop keeps serving before it stops accepting. */
    public Duration stopDelay() {
        return stopDelay;
    }

    public boolean isRunning() {
        return server.isRunning();
    }

    /**
     * Readiness reports not ready from the first moment ({@link DrainReadiness}); requests are
     * still accepted and served for the stop delay, while load balancers take the router out;
     * then it stops accepting, lets in-flight requests finish up to the grace, closes the rest.
     */
    @Override
    public void close() {
        draining.drain();
        boolean interrupted = false;
        if (stopDelay.isPositive()) {
            try {
                hurry.await(stopDelay.toNanos(), TimeUnit.NANOSECONDS);
            } catch (InterruptedException e) {
                interrupted = true; // asked to hurry: stop now
            }
        }
        // Helidon's stop refuses to run on an interrupted thread, so the flag is restored after
        server.stop();
        unclaimed.close();
        if (checker != null) {
            checker.close();
        }
        admin.stop();
        proxy.close();
        if (interrupted) {
            Thread.currentThread().interrupt();
        }
    }
}
