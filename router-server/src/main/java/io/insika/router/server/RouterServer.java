package io.insika.router.server;

import java.util.Objects;

import io.helidon.http.HeaderValues;
import io.helidon.http.encoding.ContentEncodingContext;
import io.helidon.webserver.CloseConnectionException;
import io.helidon.webserver.WebServer;
import io.helidon.webserver.http.FilterChain;
import io.helidon.webserver.http.HttpRouting;
import io.helidon.webserver.http.RoutingRequest;
import io.helidon.webserver.http.RoutingResponse;
import io.helidon.webserver.http1.Http1Config;
import io.insika.router.server.proxy.ProxyHandler;
import io.insika.router.server.proxy.ProxySettings;
import io.insika.router.server.routing.BackendPool;
import io.insika.router.server.routing.RouteTable;

/**
 * The router's web server: {@code GET /up} answered in-process, every other request proxied.
 */
public final class RouterServer implements AutoCloseable {

    private final WebServer server;
    private final ProxyHandler proxy;

    private RouterServer(WebServer server, ProxyHandler proxy) {
        this.server = server;
        this.proxy = proxy;
    }

    /**
     * Starts listening.
     *
     * @param host     bind address
     * @param port     listen port; 0 picks a free one
     * @param routes   the keyed routes
     * @param pool     the backends, updated by discovery while the server runs
     * @param settings proxy settings
     * @return the running server
     */
    public static RouterServer start(String host, int port, RouteTable routes, BackendPool pool, ProxySettings settings) {
        Objects.requireNonNull(pool, "pool");
        ProxyHandler proxy = new ProxyHandler(routes, pool, settings);
        WebServer server = WebServer.builder()
                .host(host)
                .port(port)
                .shutdownHook(false)
                // Bytes pass through untouched: never decode a request body or encode a response.
                .contentEncoding(ContentEncodingContext.builder().contentEncodingsDiscoverServices(false).build())
                .addProtocol(Http1Config.builder().maxPrologueLength(8192).build())
                .routing(routing -> routing(routing, proxy))
                .build()
                .start();
        return new RouterServer(server, proxy);
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

    public boolean isRunning() {
        return server.isRunning();
    }

    @Override
    public void close() {
        server.stop();
        proxy.close();
    }
}
