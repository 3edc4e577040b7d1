package io.insika.router.server.proxy;

import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.LongAdder;

/**
 * Things open at once against a limit, and how many were refused for it: the proxy port's client
 * connections ({@code server.max-connections}), the router's WebSocket tunnels
 * ({@code proxy.max-tunnels}). A slot taken is given back when the thing closes.
 */
public final class OpenLimit {

    /** Heap one open tunnel holds, rounded up from the 37 KiB measured (ConnectionFloodTest). */
    static final long TUNNEL_BYTES = 40 * 1024;
    /** The share of the heap tunnels may hold together, leaving the rest to connections and requests. */
    static final double TUNNEL_HEAP_SHARE = 0.4;

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
        long fit = (long) (maxHeapBytes * TUNNEL_HEAP_SHARE) / TUNNEL_BYTES;
        return (int) Math.max(16, Math.min(Integer.MAX_VALUE, fit));
    }

    /** Takes a slot; whether one was free. A slot taken is given back with {@link #give()}. */
    boolean tryTake() {
        if (open.incrementAndGet() > limit) {
            open.decrementAndGet();
            refused.increment();
            return false;
        }
        return true;
    }

    void give() {
        open.decrementAndGet();
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
