package io.insika.router.server.proxy;

import java.time.Duration;
import java.util.Set;

import io.helidon.common.buffers.BufferData;
import io.helidon.common.concurrency.limits.Limit;
import io.helidon.common.task.InterruptableTask;
import io.helidon.webserver.ConnectionContext;
import io.helidon.webserver.http2.Http2Config;
import io.helidon.webserver.http2.Http2ConnectionSelector;
import io.helidon.webserver.spi.ServerConnection;
import io.helidon.webserver.spi.ServerConnectionSelector;

/**
 * Takes the proxy listener's HTTP/2 connections (ALPN {@code h2}, or the prior-knowledge preface
 * on a plain socket) as Helidon's own, counted against {@code server.max-connections} like the
 * lean HTTP/1 ones: each stream is routed by the listener's routing, so it reaches
 * {@link ProxyHandler} as an HTTP/1 request handled by Helidon does.
 */
public final class Http2Selector implements ServerConnectionSelector {

    private final ServerConnectionSelector helidon;
    private final OpenLimit connections;

    /**
     * @param settings    the limits each connection announces
     * @param connections the proxy port's connections against its limit
     */
    public Http2Selector(Http2Settings settings, OpenLimit connections) {
        this.connections = connections;
        this.helidon = Http2ConnectionSelector.builder().http2Config(config(settings)).build();
    }

    /** Helidon's HTTP/2 configuration for these settings. */
    private static Http2Config config(Http2Settings settings) {
        return Http2Config.builder()
                .maxConcurrentStreams(settings.maxConcurrentStreams())
                .maxHeaderListSize(settings.maxHeaderListSize())
                .initialWindowSize(settings.initialWindowSize())
                // the router's access log and the client's status say why; the details are Helidon's
                .sendErrorDetails(false)
                .build();
    }

    @Override
    public int bytesToIdentifyConnection() {
        return helidon.bytesToIdentifyConnection();
    }

    @Override
    public Support supports(BufferData data) {
        return helidon.supports(data);
    }

    @Override
    public Set<String> supportedApplicationProtocols() {
        return helidon.supportedApplicationProtocols();
    }

    @Override
    public ServerConnection connection(ConnectionContext ctx) {
        return new Counted(helidon.connection(ctx), connections);
    }

    /** Helidon's HTTP/2 connection, holding one of the port's connection slots while it runs. */
    private record Counted(ServerConnection connection, OpenLimit connections)
            implements ServerConnection, InterruptableTask<Void> {

        @Override
        public void handle(Limit limit) throws InterruptedException {
            // Past the limit the connection closes before its SETTINGS: the client sees the
            // connection end, as an HTTP/1 client past the reserve does
            if (!connections.tryTake()) {
                return;
            }
            try {
                connection.handle(limit);
            } finally {
                connections.give();
            }
        }

        @Override
        public Duration idleTime() {
            return connection.idleTime();
        }

        @Override
        public void close(boolean interrupt) {
            connection.close(interrupt);
        }

        @Override
        public boolean canInterrupt() {
            return connection instanceof InterruptableTask<?> task && task.canInterrupt();
        }
    }
}
