package io.insika.router.server.backends;

import java.lang.System.Logger.Level;
import java.time.Duration;
import java.time.Instant;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.LongAdder;

/**
 * What the router knows of one backend now: the slots in use against its limits, whether it is
 * down and why, its last error, and how often it was passed over. Shared by every request to it;
 * every method is safe from any thread and none blocks.
 *
 * <p>Two signals mark it down. A connect that fails (passive) marks it down for the down time;
 * then requests try it again, and a failure renews it. A failing active check marks it down
 * until a check passes. Any answer from it, to a request or a check, marks it up.
 */
public final class BackendState {

    private static final System.Logger LOGGER = System.getLogger(BackendState.class.getName());

    /** The last failure seen: which kind ({@code unreachable}, {@code timeout}, ...), the detail, when. */
    public record LastError(String error, String detail, Instant at) {
    }

    private final String id;
    // a reload may change them: slots already taken stay taken, the next take sees the new limit
    private volatile BackendLimits limits;
    private final long downNanos;
    private final AtomicInteger requests = new AtomicInteger();
    private final AtomicInteger tunnels = new AtomicInteger();
    private final LongAdder[] refusals = new LongAdder[Refusal.values().length];
    // written on failures and recoveries only; read by every request, hence the fast path in isDown
    private volatile boolean failing;
    private volatile long passiveUntil;
    private volatile boolean checkFailing;
    private volatile LastError lastError;

    BackendState(String id, BackendLimits limits, Duration downTime) {
        this.id = id;
        this.limits = limits;
        this.downNanos = downTime.toNanos();
        for (int i = 0; i < refusals.length; i++) {
            refusals[i] = new LongAdder();
        }
    }

    public String id() {
        return id;
    }

    public BackendLimits limits() {
        return limits;
    }

    void limits(BackendLimits limits) {
        this.limits = limits;
    }

    /** Whether requests without a key must go elsewhere, and its sessions get the envelope. */
    public boolean isDown() {
        if (checkFailing) {
            return true;
        }
        return failing && System.nanoTime() - passiveUntil < 0;
    }

    /** Why it is down: {@code connect-failed} or {@code check-failed}; empty while it is up. */
    public Optional<String> downReason() {
        if (checkFailing) {
            return Optional.of("check-failed");
        }
        return isDown() ? Optional.of("connect-failed") : Optional.empty();
    }

    /** Takes one request slot, unless all are in use; pair with {@link #endRequest()}. */
    public boolean tryRequest() {
        return take(requests, limits.maxRequests());
    }

    public void endRequest() {
        requests.decrementAndGet();
    }

    /** Takes one tunnel slot, unless all are in use; pair with {@link #endTunnel()}. */
    public boolean tryTunnel() {
        return take(tunnels, limits.maxTunnels());
    }

    public void endTunnel() {
        tunnels.decrementAndGet();
    }

    private static boolean take(AtomicInteger inUse, int limit) {
        if (limit == 0) {
            inUse.incrementAndGet();
            return true;
        }
        for (int now = inUse.get(); now < limit; now = inUse.get()) {
            if (inUse.compareAndSet(now, now + 1)) {
                return true;
            }
        }
        return false;
    }

    /** Proxied requests in flight to it now, streams included. */
    public int requestsInFlight() {
        return requests.get();
    }

    /** Tunnels open to it now. */
    public int tunnelsOpen() {
        return tunnels.get();
    }

    /** It was passed over, or a request for it turned away, for this reason. */
    public void refused(Refusal reason) {
        refusals[reason.ordinal()].increment();
    }

    /** How often it was refused for this reason since it joined the pool. */
    public long refusals(Refusal reason) {
        return refusals[reason.ordinal()].sum();
    }

    public Optional<LastError> lastError() {
        return Optional.ofNullable(lastError);
    }

    /** A connection to it could not be made: down for the down time. */
    public void connectFailed(Throwable cause) {
        passiveUntil = System.nanoTime() + downNanos;
        record("unreachable", cause);
        if (!failing) {
            failing = true;
            LOGGER.log(Level.WARNING, "backend {0} down: cannot connect ({1}); requests without a key go to the"
                    + " others, its sessions get the retry envelope", id, detail(cause));
        }
    }

    /** An active check failed: down until one passes. */
    public void checkFailed(String detail) {
        lastError = new LastError("check-failed", detail, Instant.now());
        if (!checkFailing) {
            checkFailing = true;
            LOGGER.log(Level.WARNING, "backend {0} down: health check failed ({1}); requests without a key go to"
                    + " the others, its sessions get the retry envelope", id, detail);
        }
    }

    /** It answered a request or passed a check: up. */
    public void answered() {
        if (failing || checkFailing) {
            failing = false;
            checkFailing = false;
            LOGGER.log(Level.INFO, "backend {0} up again", id);
        }
    }

    /** An exchange failed after connecting: remembered, but no reason to think it down. */
    public void failed(String error, Throwable cause) {
        record(error, cause);
    }

    private void record(String error, Throwable cause) {
        lastError = new LastError(error, detail(cause), Instant.now());
    }

    /** What a failure says of itself: its message, else its kind. */
    static String detail(Throwable cause) {
        if (cause == null) {
            return "";
        }
        String message = cause.getMessage();
        return message == null || message.isBlank() ? cause.getClass().getSimpleName() : message;
    }
}
