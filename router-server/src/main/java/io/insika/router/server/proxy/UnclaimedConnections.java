package io.insika.router.server.proxy;

import java.io.IOException;
import java.net.SocketAddress;
import java.nio.channels.SocketChannel;
import java.time.Duration;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.LongAdder;

import io.helidon.common.buffers.BufferData;
import io.helidon.webserver.ConnectionContext;
import io.helidon.webserver.spi.ServerConnection;
import io.helidon.webserver.spi.ServerConnectionSelector;

/**
 * Client connections the proxy listener accepted that no protocol has claimed yet, closed when
 * they stay unclaimed past {@code server.head-timeout} from their accept. Helidon reads a
 * connection's first bytes, and does its TLS handshake, before any connection object exists,
 * blocking with no deadline, and its idle check sees only connections a protocol took: a client
 * that connected and sent nothing (or stalled its handshake) held a slot of the listener for
 * ever, and enough of them kept every later client, {@code /up} included, in the listen backlog.
 * nginx's {@code client_header_timeout} and HAProxy's {@code timeout http-request} count from the
 * accept too.
 */
public final class UnclaimedConnections implements AutoCloseable {

    private final Map<SocketAddress, Accepted> waiting = new ConcurrentHashMap<>();
    private final LongAdder closed = new LongAdder();
    private final long deadlineNanos;
    private final Duration period;
    private final Thread sweeper;
    private volatile boolean running = true;

    private record Accepted(SocketChannel channel, long at) {
    }

    private UnclaimedConnections(Duration deadline, Duration period) {
        this.deadlineNanos = deadline.toNanos();
        this.period = period;
        this.sweeper = Thread.ofVirtual().name("insika-unclaimed-connections").unstarted(this::sweep);
    }

    /**
     * @param deadline how long an accepted connection may go unclaimed
     * @param period   how often to look: a connection is closed within this past its deadline
     * @return the running sweeper
     */
    public static UnclaimedConnections start(Duration deadline, Duration period) {
        UnclaimedConnections unclaimed = new UnclaimedConnections(deadline, period);
        unclaimed.sweeper.start();
        return unclaimed;
    }

    /** Called by the listener's socket options on every accepted connection. */
    void accepted(SocketChannel channel) {
        try {
            SocketAddress peer = channel.getRemoteAddress();
            if (peer != null) {
                waiting.put(peer, new Accepted(channel, System.nanoTime()));
            }
        } catch (IOException alreadyClosed) {
            // nothing to time
        }
    }

    /**
     * The selector, claiming each connection it takes: a connection a protocol holds is timed
     * by that protocol's head and idle deadlines from then on.
     */
    public ServerConnectionSelector claiming(ServerConnectionSelector selector) {
        return new ClaimingSelector(selector);
    }

    /** Connections closed for staying unclaimed past the deadline. */
    public long closed() {
        return closed.sum();
    }

    /** Connections accepted and not yet claimed or closed, as last looked at. */
    int waiting() {
        return waiting.size();
    }

    private void sweep() {
        while (running) {
            try {
                Thread.sleep(period);
            } catch (InterruptedException stopping) {
                return;
            }
            long now = System.nanoTime();
            waiting.values().removeIf(accepted -> !accepted.channel().isOpen() || overdue(accepted, now));
        }
    }

    private boolean overdue(Accepted accepted, long now) {
        if (now - accepted.at() <= deadlineNanos) {
            return false;
        }
        try {
            // Helidon's read (or handshake) on it fails, and its handler gives the slot back
            accepted.channel().close();
            closed.increment();
        } catch (IOException ignored) {
            // closed either way
        }
        return true;
    }

    @Override
    public void close() {
        running = false;
        sweeper.interrupt();
    }

    private final class ClaimingSelector implements ServerConnectionSelector {

        private final ServerConnectionSelector selector;

        private ClaimingSelector(ServerConnectionSelector selector) {
            this.selector = selector;
        }

        @Override
        public int bytesToIdentifyConnection() {
            return selector.bytesToIdentifyConnection();
        }

        @Override
        public Support supports(BufferData data) {
            return selector.supports(data);
        }

        @Override
        public Set<String> supportedApplicationProtocols() {
            return selector.supportedApplicationProtocols();
        }

        @Override
        public ServerConnection connection(ConnectionContext ctx) {
            waiting.remove(ctx.remotePeer().address());
            return selector.connection(ctx);
        }
    }
}
