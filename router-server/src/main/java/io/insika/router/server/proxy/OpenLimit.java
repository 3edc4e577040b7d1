package io.insika.router.server.proxy;

import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.LongAdder;

/**
 * Things open at once against a limit, and how many were refused for it: the proxy port's client
 * connections ({@code server.max-connections}), the router's WebSocket tunnels
 * ({@code proxy.max-tunnels}). A slot taken is given back when the thing closes.
 *
 * <p>Both limits default to what the JVM's heap holds, from one budget: client connections may
 * fill half of it and tunnels (each holding a client connection too) a quarter, so that with both
 * at their limit a quarter or more is left to requests in flight and the router's own state.
 */
public final class OpenLimit {

    /**
     * Heap one idle kept-alive client connection holds, rounded up from the 18.5 KiB measured
     * (4,096 of them, GC.class_histogram): Helidon's 8 KiB read buffer, the parked virtual
     * thread's stack, the socket and the connection's own state.
     */
    static final long CONNECTION_BYTES = 20 * 1024;
    /** The share of the heap client connections may hold together. */
    static final double CONNECTION_HEAP_SHARE = 0.5;
    /** Heap one open tunnel holds, rounded up from the 37-38 KiB measured (ConnectionFloodTest). */
    static final long TUNNEL_BYTES = 40 * 1024;
    /**
     * The share of the heap tunnels may hold together. At 0.4, beside a fixed 4,096 connections,
     * tunnels and idle connections at their limits left the shipped heap ~90% full of live
     * objects, and ~1 KiB more per connection ended it (ConnectionFloodTest).
     */
    static final double TUNNEL_HEAP_SHARE = 0.25;

    private final int limit;
    private final AtomicInteger open = new AtomicInteger();
    private final LongAdder refused = new LongAdder();

    public OpenLimit(int limit) {
        if (limit < 1) {
            throw new IllegalArgumentException("limit: [" + limit + "] (expected: >= 1)");
        }
        this.limit = limit;
    }

    /**
     * The proxy port's connection limit: the one configured, or for 0 as many as this JVM's heap
     * holds ({@link #connectionsForHeap}).
     */
    public static int connectionLimit(int configured) {
        return configured > 0 ? configured : connectionsForHeap(Runtime.getRuntime().maxMemory());
    }

    /** How many idle client connections a heap of this many bytes holds: their share of it, at least 64. */
    public static int connectionsForHeap(long maxHeapBytes) {
        return forHeap(maxHeapBytes, CONNECTION_HEAP_SHARE, CONNECTION_BYTES, 64);
    }

    /**
     * The router's tunnel limit: the one configured, or for 0 as many as this JVM's heap holds.
     * Each open tunnel holds two virtual threads, the client connection and a backend connection
     * with its buffers, ~37 KiB of heap in all (a flood of upgrades ended the shipped 112 MiB heap
     * at 1,725 and 2,038 tunnels before there was a limit).
     */
    public static OpenLimit tunnels(int configured) {
        return new OpenLimit(configured > 0 ? configured : tunnelsForHeap(Runtime.getRuntime().maxMemory()));
    }

    /** How many tunnels a heap of this many bytes holds: their share of it, at least 16. */
    public static int tunnelsForHeap(long maxHeapBytes) {
        return forHeap(maxHeapBytes, TUNNEL_HEAP_SHARE, TUNNEL_BYTES, 16);
    }

    private static int forHeap(long maxHeapBytes, double share, long each, int least) {
        long fit = (long) (maxHeapBytes * share) / each;
        return (int) Math.max(least, Math.min(1_000_000, fit));
    }

    /** Takes a slot; whether one was free. A slot taken is given back with {@link #give()}. */
    boolean tryTake() {
        return tryTake(1);
    }

    /**
     * Takes this many slots at once, for a thing that holds as much heap as that many (an HTTP/2
     * connection); whether they were free. They are given back with {@link #give(int)}.
     */
    boolean tryTake(int slots) {
        if (open.addAndGet(slots) > limit) {
            open.addAndGet(-slots);
            refused.increment();
            return false;
        }
        return true;
    }

    void give() {
        give(1);
    }

    void give(int slots) {
        open.addAndGet(-slots);
    }

    public int open() {
        return open.get();
    }

    public int limit() {
        return limit;
    }

    /** Refused for want of a slot so far. */
    public long refused() {
        return refused.sum();
    }

    /** Whether the next one would be refused now. */
    public boolean full() {
        return open.get() >= limit;
    }
}
