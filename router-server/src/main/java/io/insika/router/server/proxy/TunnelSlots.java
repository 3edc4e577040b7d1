package io.insika.router.server.proxy;

import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.LongAdder;

/**
 * WebSocket (and other upgraded) tunnels open at once through the whole router, whatever their
 * backend: each holds two virtual threads, the client connection and a backend connection with
 * its buffers, ~37 KiB of heap in all (measured: a flood of upgrades ended the shipped 112 MiB
 * heap at 1,725 and 2,038 tunnels). Past the limit an upgrade gets the retry envelope.
 */
public final class TunnelSlots {

    /** Heap one open tunnel holds, rounded up from the 37 KiB measured. */
    static final long TUNNEL_BYTES = 40 * 1024;
    /** The share of the heap tunnels may hold together, leaving the rest to connections and requests. */
    static final double HEAP_SHARE = 0.4;

    private final int limit;
    private final AtomicInteger open = new AtomicInteger();
    private final LongAdder refused = new LongAdder();

    /** @param limit tunnels open at once; 0 for as many as this JVM's heap allows ({@link #forHeap}) */
    public TunnelSlots(int limit) {
        this.limit = limit > 0 ? limit : forHeap(Runtime.getRuntime().maxMemory());
    }

    /** How many tunnels a heap of this many bytes holds: its tunnels' share, at least 16. */
    public static int forHeap(long maxHeapBytes) {
        return (int) Math.max(16, Math.min(Integer.MAX_VALUE, (long) (maxHeapBytes * HEAP_SHARE) / TUNNEL_BYTES));
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

    /** Upgrades refused for want of a slot so far. */
    public long refused() {
        return refused.sum();
    }
}
