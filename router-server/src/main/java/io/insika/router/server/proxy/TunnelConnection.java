package io.insika.router.server.proxy;

import java.io.IOException;
import java.time.Duration;

import io.helidon.common.buffers.BufferData;
import io.helidon.common.buffers.DataReader;
import io.helidon.common.concurrency.limits.Limit;
import io.helidon.webserver.ConnectionContext;
import io.helidon.webserver.spi.ServerConnection;
import io.insika.router.server.metrics.RouterMetrics;
import io.insika.router.server.upstream.Exchange;

/**
 * An upgraded client connection joined to its backend connection: bytes flow both ways as they
 * come, until either side closes; then both close. Backend to client runs on the connection's
 * own thread (when it returns Helidon closes the client socket, which ends the other direction);
 * client to backend on a second virtual thread (when the client leaves it closes the backend,
 * which ends this one).
 */
final class TunnelConnection implements ServerConnection {

    // how long a tunnel may carry nothing before the listener's idle check closes it
    static final Duration QUIET_LIMIT = Duration.ofMinutes(5);

    private static final System.Logger LOGGER = System.getLogger(TunnelConnection.class.getName());

    private final ConnectionContext ctx;
    private final Exchange backend;
    private final RouterMetrics metrics;
    private final Ended ended;
    private long bytesToClient; // written by the handling thread only
    private volatile long lastActivity = System.nanoTime();

    /** Told once, when the tunnel has closed. */
    interface Ended {
        /** @param bytesToClient what the backend sent through the tunnel */
        void ended(long bytesToClient);
    }

    TunnelConnection(ConnectionContext ctx, Exchange backend, RouterMetrics metrics, Ended ended) {
        this.ctx = ctx;
        this.backend = backend;
        this.metrics = metrics;
        this.ended = ended;
    }

    @Override
    public void handle(Limit limit) {
        metrics.tunnelOpened();
        Thread.ofVirtual().name("insika-tunnel-up").start(this::clientToBackend);
        try {
            backendToClient();
        } finally {
            backend.discard();
            metrics.tunnelClosed();
            ended.ended(bytesToClient);
        }
    }

    private void backendToClient() {
        try {
            for (byte[] bytes = backend.readSome(); bytes != null; bytes = backend.readSome()) {
                ctx.dataWriter().writeNow(BufferData.create(bytes));
                bytesToClient += bytes.length;
                lastActivity = System.nanoTime();
            }
        } catch (IOException | RuntimeException e) {
            LOGGER.log(System.Logger.Level.DEBUG, "tunnel from " + backend.backend().id() + " ended", e);
        }
    }

    // The client's end of stream is passed on as one (a half-close): the backend may still have
    // things to say, and its own close then ends the tunnel. Any failure ends both directions.
    private void clientToBackend() {
        DataReader client = ctx.dataReader();
        try {
            while (true) {
                try {
                    client.ensureAvailable();
                } catch (DataReader.InsufficientDataAvailableException e) {
                    backend.shutdownOutput();
                    return;
                }
                backend.send(client.readBuffer().readBytes());
                lastActivity = System.nanoTime();
            }
        } catch (IOException | RuntimeException e) {
            LOGGER.log(System.Logger.Level.DEBUG, "tunnel to " + backend.backend().id() + " ended", e);
            backend.discard(); // ends backendToClient
        }
    }

    @Override
    public Duration idleTime() {
        // The listener's idle timeout is for connections awaiting a request; a tunnel's silences are
        // the application's, and it may be quiet for as long as HAProxy's "timeout tunnel" is
        // commonly set. Past that it is idle by any measure.
        Duration idle = Duration.ofNanos(System.nanoTime() - lastActivity);
        return idle.compareTo(QUIET_LIMIT) > 0 ? idle : Duration.ZERO;
    }

    @Override
    public void close(boolean interrupt) {
        backend.discard();
    }

    /** An upgrade that was answered without one: nothing more to do on the connection. */
    static final class Closed implements ServerConnection {
        @Override
        public void handle(Limit limit) {
            // the answer was written already; returning lets Helidon close the connection
        }

        @Override
        public Duration idleTime() {
            return Duration.ZERO;
        }

        @Override
        public void close(boolean interrupt) {
            // nothing held
        }
    }
}
