package io.insika.router.server.proxy;

import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.LongAdder;

/**
 * The proxy port's client connections against {@code server.max-connections}. The listener
 * accepts {@link #RESERVE} more than the limit so that a full router still answers: a connection
 * past the limit gets {@code /up} answered or the retry envelope, at once, and is closed. Without
 * the reserve a full router let every new client, the orchestrator's liveness probe included,
 * wait in the listen backlog, and was restarted for being busy.
 */
public final class ClientConnections {

    /**
     * Connections accepted past the limit, each only long enough to be answered from the bytes
     * its first read brought: a few KiB of heap each, for milliseconds.
     */
    public static final int RESERVE = 64;

    private final int limit;
    private final AtomicInteger open = new AtomicInteger();
    private final LongAdder refused = new LongAdder();

    /** @param limit {@code server.max-connections} */
    public ClientConnections(int limit) {
        this.limit = limit;
    }

    /**
     * A connection begins; whether it is within the limit. Either way {@link #end()} must follow.
     */
    boolean begin() {
        if (open.incrementAndGet() > limit) {
            refused.increment();
            return false;
        }
        return true;
    }

    /** A connection {@link #begin() begun} ended. */
    void end() {
        open.decrementAndGet();
    }

    /** Connections open now, those being refused included. */
    public int open() {
        return open.get();
    }

    public int limit() {
        return limit;
    }

    /** Connections refused at the limit so far. */
    public long refused() {
        return refused.sum();
    }

    /** Whether a new client would be refused now. */
    public boolean full() {
        return open.get() >= limit;
    }
}
