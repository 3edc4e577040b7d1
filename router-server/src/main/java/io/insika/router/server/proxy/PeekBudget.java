package io.insika.router.server.proxy;

import java.time.Duration;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;

/**
 * The memory all key peeks in flight may hold together, beyond the first
 * {@link #FREE_BYTES} of each (those are bounded by the request limit). Without it, a few hundred
 * slow clients each trickling a keyed body up to {@code body-max-bytes} could fill the heap; with
 * it, a peek that cannot grow waits {@link #WAIT} for budget and is then refused with the retry
 * envelope, never routed without its key.
 */
final class PeekBudget {

    /** What every peek may hold without asking: a small body's whole key search. */
    static final int FREE_BYTES = 8192;
    /** How long a peek waits for budget before its request is refused. */
    static final Duration WAIT = Duration.ofSeconds(1);

    private final int total;
    private final Semaphore bytes;

    /** @param total bytes shared by all peeks beyond their free part */
    PeekBudget(int total) {
        this.total = total;
        this.bytes = new Semaphore(total);
    }

    /**
     * Takes bytes of the budget, waiting up to {@link #WAIT}.
     *
     * @return false if they could not be had: the peek must stop and its request be refused
     */
    boolean acquire(int count) {
        if (count > total) {
            return false;
        }
        try {
            if (bytes.tryAcquire(count) || bytes.tryAcquire(count, WAIT.toNanos(), TimeUnit.NANOSECONDS)) {
                return true;
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt(); // a stalled client cut by the watchdog, say
        }
        return false;
    }

    void release(int count) {
        if (count > 0) {
            bytes.release(count);
        }
    }

    /** Bytes held by peeks now: exported as a gauge. */
    long inUse() {
        return total - bytes.availablePermits();
    }
}
