package io.insika.router.server.upstream;

import java.io.IOException;
import java.time.Duration;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedDeque;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Consumer;
import java.util.function.Supplier;

import io.insika.router.api.Backend;

/**
 * The router's HTTP/1.1 client towards its backends, and its one entry: {@link #exchange}, a
 * connection for one request and its answer, with the writer, the parsers and the framing
 * rules that go with it (see {@link Exchange}). It holds kept-alive connections, reused
 * most-recent first, and the watchdog that enforces the backend timeout on every open one.
 *
 * <p>Why its own: measured under wrk, Helidon's webclient (its per-request objects, its timed
 * socket reads, its idle-connection watcher threads) cost more CPU than the rest of the proxy
 * (see docs/benchmarks.md). So this code has to be as careful as a library's: every head it
 * reads is validated whole, every head it writes is checked as it is written.
 *
 * <p>A connection is checked when it is taken ({@link BackendConnection#isReusable(long, boolean)}), so one
 * the backend closed while idle is dropped before a request is written to it. The watchdog
 * wakes a few times per timeout: it closes connections whose current read or write has waited
 * longer than the backend timeout, and idle ones kept past {@link #IDLE_LIMIT}. Between
 * requests nothing else runs: an idle router costs no CPU.
 */
public final class BackendClient implements AutoCloseable {

    /** How long an unused connection is kept; below the keep-alive timeout of common servers. */
    static final Duration IDLE_LIMIT = Duration.ofSeconds(30);
    private static final int MAX_IDLE_PER_BACKEND = 1024;
    /**
     * How long every reuse of a backend's connections is probed after one of them failed under a
     * request before its answer's head: the backend closes kept connections without a word, so
     * connections it let go moments ago may be closed too ({@link BackendConnection#PROBE_AFTER}).
     */
    static final Duration PROBE_ALL_FOR = Duration.ofSeconds(30);

    private final Duration idleLimit;
    // replaced by a reload; each exchange keeps the one it began with
    private volatile Duration timeout;
    private volatile Duration streamIdleTimeout = Duration.ZERO;
    private final Supplier<Set<String>> currentBackends;
    private final Map<String, IdleQueue> idle = new ConcurrentHashMap<>();
    private final Set<BackendConnection> open = ConcurrentHashMap.newKeySet();
    private final Thread watchdog;
    private volatile boolean closed;

    /**
     * @param timeout         connect timeout, and the longest one read or write may wait
     * @param currentBackends the ids of the backends in the pool now: idle connections to any
     *                        other are closed at the watchdog's next tick
     */
    public BackendClient(Duration timeout, Supplier<Set<String>> currentBackends) {
        this(timeout, IDLE_LIMIT, currentBackends);
    }

    /**
     * @param timeout         connect timeout, and the longest one read or write may wait
     * @param idleLimit       how long an unused connection is kept
     * @param currentBackends the ids of the backends in the pool now: idle connections to any
     *                        other are closed at the watchdog's next tick
     */
    BackendClient(Duration timeout, Duration idleLimit, Supplier<Set<String>> currentBackends) {
        this.timeout = timeout;
        this.idleLimit = idleLimit;
        this.currentBackends = currentBackends;
        this.watchdog = Thread.ofVirtual().name("insika-backend-watchdog").start(this::watch);
    }

    /**
     * Sets the connect and backend timeout of exchanges begun from now on; those under way keep
     * theirs. A shorter one is enforced from the watchdog's next tick.
     */
    public void timeout(Duration timeout) {
        this.timeout = timeout;
    }

    /**
     * Sets how long a backend may stay silent once an answer of exchanges begun from now on became
     * a stream ({@link ResponseBody#becomeStream()}); zero for no limit.
     */
    public void streamIdleTimeout(Duration timeout) {
        this.streamIdleTimeout = timeout;
    }

    /**
     * Starts an exchange with the backend, on the most recently used live connection or a new one.
     *
     * @throws IOException if a new connection cannot be made: nothing was sent
     */
    public Exchange exchange(Backend backend) throws IOException {
        Lease lease = acquire(backend);
        return new Exchange(this, lease.connection(), lease.fresh());
    }

    /**
     * A connection to the backend: the most recently used live one, or a new one.
     *
     * @return the connection and whether it is new
     * @throws IOException if a new connection cannot be made
     */
    Lease acquire(Backend backend) throws IOException {
        Duration limit = timeout;
        IdleQueue queue = idle.get(backend.id());
        if (queue != null) {
            long now = System.nanoTime();
            boolean probeAll = queue.probingAll(now);
            for (BackendConnection kept = queue.poll(); kept != null; kept = queue.poll()) {
                if (kept.isReusable(now, probeAll)) {
                    kept.timeouts(limit.toNanos(), streamIdleTimeout.toNanos());
                    return new Lease(kept, false);
                }
                discard(kept);
            }
        }
        BackendConnection connection = BackendConnection.open(backend, limit);
        connection.timeouts(limit.toNanos(), streamIdleTimeout.toNanos());
        open.add(connection);
        if (closed) {
            discard(connection);
            throw new IOException("the router is stopping");
        }
        return new Lease(connection, true);
    }

    /** Keeps a connection whose exchange ended cleanly for the next request to its backend. */
    void release(BackendConnection connection) {
        if (closed || connection.isClosed()) {
            discard(connection);
            return;
        }
        connection.idleSince(System.nanoTime());
        String id = connection.backend().id();
        IdleQueue queue = idle.computeIfAbsent(id, key -> new IdleQueue());
        if (!queue.offer(connection)) {
            discard(connection);
        } else if (idle.get(id) != queue) {
            // The watchdog dropped this backend's queue meanwhile; it may have emptied it before
            // our offer, so empty it again.
            queue.drain(this::discard);
        }
    }

    /**
     * A kept connection failed before its answer's head: every reuse of its backend's connections
     * is probed for {@link #PROBE_ALL_FOR} from now.
     */
    void keptConnectionFailed(Backend backend) {
        idle.computeIfAbsent(backend.id(), key -> new IdleQueue()).probeAllUntil(System.nanoTime() + PROBE_ALL_FOR.toNanos());
    }

    /**
     * Whether the backend accepts a connection now. The one made is kept for the next request: it
     * is probed when taken, like any other.
     */
    boolean accepts(Backend backend) {
        BackendConnection connection;
        try {
            connection = BackendConnection.open(backend, timeout);
        } catch (IOException refused) {
            return false;
        }
        open.add(connection);
        release(connection);
        return true;
    }

    /** Closes a connection that must not be reused: its exchange failed or was cut short. */
    void discard(BackendConnection connection) {
        open.remove(connection);
        connection.close();
    }

    /** How many connections are open, busy, idle or tunnelling: exported as a metric. */
    public int openCount() {
        return open.size();
    }

    /** Closes every connection, busy ones included, and stops the watchdog. */
    @Override
    public void close() {
        closed = true;
        watchdog.interrupt();
        open.forEach(this::discard);
        idle.clear();
    }

    private void watch() {
        long idleNanos = idleLimit.toNanos();
        while (!closed) {
            // A timeout fires between 1 and 1.25 times its configured length (the current one's).
            long tickMillis = Math.max(10, Math.min(1_000, Math.min(timeout.toMillis(), idleLimit.toMillis()) / 4));
            try {
                Thread.sleep(tickMillis);
            } catch (InterruptedException e) {
                return;
            }
            long now = System.nanoTime();
            for (BackendConnection connection : open) {
                long since = connection.waitingSince();
                if (since != 0 && now - since > connection.timeoutNanos()) {
                    open.remove(connection);
                    connection.expire();
                }
            }
            for (IdleQueue queue : idle.values()) {
                queue.closeOlderThan(now - idleNanos, this::discard);
            }
            dropRemovedBackends();
        }
    }

    // A backend that left the pool (a pod gone from DNS) gets no more requests: close its idle
    // connections now rather than after the idle limit, and forget its queue.
    private void dropRemovedBackends() {
        Set<String> current = currentBackends.get();
        for (Map.Entry<String, IdleQueue> entry : idle.entrySet()) {
            if (!current.contains(entry.getKey()) && idle.remove(entry.getKey(), entry.getValue())) {
                entry.getValue().drain(this::discard);
            }
        }
    }

    /**
     * A connection handed out for one exchange.
     *
     * @param connection the connection
     * @param fresh      whether it was just made: a failure on a reused one before any byte was
     *                   sent means it died idle, on a new one that the backend is unreachable
     */
    record Lease(BackendConnection connection, boolean fresh) {
    }

    // Most recently used first, so a burst's worth of connections stays warm and the rest age
    // out at the tail; counted apart because the deque's size() walks the whole deque.
    private static final class IdleQueue {
        private final ConcurrentLinkedDeque<BackendConnection> connections = new ConcurrentLinkedDeque<>();
        private final AtomicInteger count = new AtomicInteger();
        private volatile long probeAllUntil;
        private volatile boolean probeAll;

        void probeAllUntil(long deadline) {
            probeAllUntil = deadline;
            probeAll = true;
        }

        // read on every taking: a plain volatile read until a failure asks for probes
        boolean probingAll(long now) {
            if (!probeAll) {
                return false;
            }
            if (now - probeAllUntil < 0) {
                return true;
            }
            probeAll = false;
            return false;
        }

        boolean offer(BackendConnection connection) {
            if (count.incrementAndGet() > MAX_IDLE_PER_BACKEND) {
                count.decrementAndGet();
                return false;
            }
            connections.offerFirst(connection);
            return true;
        }

        BackendConnection poll() {
            BackendConnection connection = connections.pollFirst();
            if (connection != null) {
                count.decrementAndGet();
            }
            return connection;
        }

        void drain(Consumer<BackendConnection> discard) {
            for (BackendConnection connection = poll(); connection != null; connection = poll()) {
                discard.accept(connection);
            }
        }

        // Only a connection this call removed is closed: a taker may have polled it meanwhile.
        void closeOlderThan(long deadline, Consumer<BackendConnection> discard) {
            for (BackendConnection oldest = connections.peekLast();
                 oldest != null && oldest.idleSince() - deadline < 0;
                 oldest = connections.peekLast()) {
                if (connections.removeLastOccurrence(oldest)) {
                    count.decrementAndGet();
                    discard.accept(oldest);
                }
            }
        }

    }
}
