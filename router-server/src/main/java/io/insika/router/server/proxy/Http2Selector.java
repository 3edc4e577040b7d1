package io.insika.router.server.proxy;

import java.time.Duration;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ExecutorService;

import io.helidon.common.buffers.BufferData;
import io.helidon.common.buffers.DataReader;
import io.helidon.common.buffers.DataWriter;
import io.helidon.common.socket.HelidonSocket;
import io.helidon.common.socket.PeerInfo;
import io.helidon.common.concurrency.limits.Limit;
import io.helidon.common.task.InterruptableTask;
import io.helidon.webserver.ConnectionContext;
import io.helidon.webserver.ListenerContext;
import io.helidon.webserver.ProxyProtocolData;
import io.helidon.webserver.Router;
import io.helidon.webserver.http2.Http2Config;
import io.helidon.webserver.http2.Http2ConnectionSelector;
import io.helidon.webserver.spi.ServerConnection;
import io.helidon.webserver.spi.ServerConnectionSelector;

/**
 * Takes the proxy listener's HTTP/2 connections (ALPN {@code h2}, or the prior-knowledge preface
 * on a plain socket) as Helidon's own, counted against {@code server.max-connections} like the
 * lean HTTP/1 ones: each stream is routed by the listener's routing, so it reaches
 * {@link ProxyHandler} as an HTTP/1 request handled by Helidon does. Each connection's bytes pass
 * its {@link Http2ReceiveWindow} both ways, so that a client keeps to the flow-control window.
 */
public final class Http2Selector implements ServerConnectionSelector {

    /**
     * Heap an HTTP/2 connection holds per byte of request DATA it holds unread: Helidon keeps each
     * frame's bytes and its own objects for it. Measured: ~120 KiB per connection holding a 48 KB
     * upload, of which ~18.5 KiB is what any connection holds.
     */
    private static final int HEAP_PER_UNREAD_BYTE = 2;
    // what idleTime() says of a connection that opened no stream within head-timeout: past any idle timeout
    private static final Duration OVERDUE = Duration.ofDays(365);

    private final ServerConnectionSelector helidon;
    private final OpenLimit connections;
    private final Http2Traffic traffic;
    private final long headTimeoutNanos;
    private final int slots;

    /**
     * @param settings    the limits each connection announces
     * @param headTimeout how long a connection may take to open its first stream, from its preface
     * @param connections the proxy port's connections against its limit
     * @param traffic     counts what the connections do, for the metrics
     */
    public Http2Selector(Http2Settings settings, Duration headTimeout, OpenLimit connections, Http2Traffic traffic) {
        this.connections = connections;
        this.traffic = traffic;
        this.headTimeoutNanos = headTimeout.toNanos();
        this.slots = connectionSlots(settings);
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

    /**
     * The slots of {@code server.max-connections} one HTTP/2 connection takes: one for what every
     * connection holds, and enough for the unread DATA its connection window lets a client send
     * ({@link Http2ReceiveWindow}: 64 KiB, or the initial window if larger, which Helidon gives the
     * connection too). Eight with the defaults.
     */
    static int connectionSlots(Http2Settings settings) {
        long window = Math.max(Http2ReceiveWindow.INITIAL, settings.initialWindowSize());
        long held = HEAP_PER_UNREAD_BYTE * window;
        return (int) Math.min(Integer.MAX_VALUE, 1 + (held + OpenLimit.CONNECTION_BYTES - 1) / OpenLimit.CONNECTION_BYTES);
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
        Http2ReceiveWindow window = new Http2ReceiveWindow(traffic);
        return new Counted(helidon.connection(new Watched(ctx, window)), window, this, System.nanoTime());
    }

    /**
     * Helidon's HTTP/2 connection, holding its slots of the port's connection limit while it runs,
     * and closed by the listener's idle check if it opened no stream within head-timeout of its
     * preface (a connection that sends nothing but the preface holds its 8 slots no longer than an
     * HTTP/1 connection that sends no request holds its one); from its first stream on,
     * Helidon's idle time counts, against {@code server.idle-timeout}.
     */
    private record Counted(ServerConnection connection, Http2ReceiveWindow window, Http2Selector selector,
                           long claimed) implements ServerConnection, InterruptableTask<Void> {

        @Override
        public void handle(Limit limit) throws InterruptedException {
            // Past the limit the connection closes before its SETTINGS: the client sees the
            // connection end, as an HTTP/1 client past the reserve does
            if (!selector.connections.tryTake(selector.slots)) {
                return;
            }
            selector.traffic.connection();
            try {
                connection.handle(limit);
            } finally {
                selector.connections.give(selector.slots);
            }
        }

        @Override
        public Duration idleTime() {
            if (!window.streamOpened() && System.nanoTime() - claimed > selector.headTimeoutNanos) {
                return OVERDUE;
            }
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

    /** The connection as Helidon's HTTP/2 sees it: its bytes pass the receive window both ways. */
    private static final class Watched implements ConnectionContext {
        private final ConnectionContext ctx;
        private final DataReader reader;
        private final DataWriter writer;

        private Watched(ConnectionContext ctx, Http2ReceiveWindow window) {
            this.ctx = ctx;
            DataReader source = ctx.dataReader();
            // what the listener read to choose this connection (the preface) comes first
            this.reader = DataReader.create(() -> {
                source.ensureAvailable(); // at the end of the stream: InsufficientDataAvailableException
                byte[] bytes = source.readBytes(source.available());
                window.received(bytes);
                return bytes;
            });
            this.writer = new WatchedWriter(ctx.dataWriter(), window);
        }

        @Override
        public DataReader dataReader() {
            return reader;
        }

        @Override
        public DataWriter dataWriter() {
            return writer;
        }

        @Override
        public ListenerContext listenerContext() {
            return ctx.listenerContext();
        }

        @Override
        public ExecutorService executor() {
            return ctx.executor();
        }

        @Override
        public Router router() {
            return ctx.router();
        }

        @Override
        public Optional<ProxyProtocolData> proxyProtocolData() {
            return ctx.proxyProtocolData();
        }

        @Override
        public HelidonSocket serverSocket() {
            return ctx.serverSocket();
        }

        @Override
        public PeerInfo remotePeer() {
            return ctx.remotePeer();
        }

        @Override
        public PeerInfo localPeer() {
            return ctx.localPeer();
        }

        @Override
        public boolean isSecure() {
            return ctx.isSecure();
        }

        @Override
        public String socketId() {
            return ctx.socketId();
        }

        @Override
        public String childSocketId() {
            return ctx.childSocketId();
        }
    }

    /** Helidon's frames on their way out: its grants are counted before they leave. */
    private record WatchedWriter(DataWriter writer, Http2ReceiveWindow window) implements DataWriter {

        @Override
        public void write(BufferData... buffers) {
            for (BufferData buffer : buffers) {
                window.sending(buffer);
            }
            writer.write(buffers);
        }

        @Override
        public void write(BufferData buffer) {
            window.sending(buffer);
            writer.write(buffer);
        }

        @Override
        public void writeNow(BufferData... buffers) {
            for (BufferData buffer : buffers) {
                window.sending(buffer);
            }
            writer.writeNow(buffers);
        }

        @Override
        public void writeNow(BufferData buffer) {
            window.sending(buffer);
            writer.writeNow(buffer);
        }

        @Override
        public void flush() {
            writer.flush();
        }

        @Override
        public void close() {
            writer.close();
        }
    }
}
