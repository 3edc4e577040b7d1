package io.insika.router.server.proxy;

import io.helidon.http.Method;
import io.insika.router.api.Backend;
import io.insika.router.server.metrics.BackendMeters;

/**
 * One client request, from its head to its access log line: what it asked (its target, read
 * once), where it went (its placement, and the slot it holds there), how it ended (its outcome)
 * and what the client got. Every entry makes one the same way ({@link ProxyParts#call}): Helidon's
 * handler, the lean HTTP/1 connection (both through {@link ProxyHandler}), and the WebSocket
 * upgrade ({@link UpgradeTunnel}). The forwarder, the relay, the forwarded headers and the access
 * log read the request's state from here, so it travels as one value.
 *
 * <p>Used by the request's own thread only, as Envoy's {@code ActiveStream} and HAProxy's
 * {@code struct stream} are by theirs.
 */
final class ProxyCall {

    private final ProxyParts parts;
    private final ClientRequest request;
    private final ClientAnswer answer;
    private final RequestTarget target;
    private final long started = System.nanoTime();
    private final String requestId;
    private BodyPeek body;
    private Placed placed;
    private SlotHold hold = SlotHold.NONE;
    private Outcome outcome = Outcome.RELAYED;
    private long tunnelled = -1;
    private BackendMeters answeredBy;
    private long backendHeadNanos = -1;

    ProxyCall(ProxyParts parts, ClientRequest request, ClientAnswer answer) {
        this.parts = parts;
        this.request = request;
        this.answer = answer;
        this.target = RequestTarget.of(request.prologue());
        this.requestId = RequestId.of(request.headers());
    }

    /** The request's id ({@link RequestId}): the backend gets it, and the client gets it back. */
    String requestId() {
        return requestId;
    }

    ProxyParts parts() {
        return parts;
    }

    ClientRequest request() {
        return request;
    }

    ClientAnswer answer() {
        return answer;
    }

    RequestTarget target() {
        return target;
    }

    /** Whether the request is a HEAD: its answer carries no body. */
    boolean isHead() {
        return request.prologue().method() == Method.HEAD;
    }

    /** The body, with what was peeked of it; {@code null} when the request has none. */
    BodyPeek body() {
        return body;
    }

    /** Opens the body for the key peek, watched for a client that stalls while sending it. */
    void openBody() {
        if (request.body() != null) {
            body = new BodyPeek(parts.watchdog().watch(request.body()), parts.settings().bodyMaxBytes(),
                    request.headers().contentLength().orElse(-1), parts.peekBudget());
        }
    }

    /** Whether the client sent a body that was not read to its end: its connection cannot carry another request. */
    boolean bodyLeftUnread() {
        return body != null && !body.fullyRead();
    }

    /** Where the request went; {@code null} before it was placed. */
    Placed placed() {
        return placed;
    }

    /**
     * Places the request, counted in the metrics; the request slot it takes is held here until
     * the answer was read, or the request ends.
     */
    Placed place() {
        Placed where = parts.placer().locate(target, request.headers(), body, Placer.Slot.REQUEST);
        parts.placer().count(where);
        return hold(where);
    }

    /**
     * Places a request without a key whose backend could not be reached on the next backend
     * ({@link Placer#redispatch}), giving the failed one's slot back.
     */
    Placed redispatch(Placed.Admitted failed) {
        return hold(parts.placer().redispatch(failed));
    }

    /**
     * Places an upgrade on a tunnel slot, which the tunnel gives back when it closes; counted
     * only once the tunnel takes it ({@link #count}): a declined upgrade is placed again as a
     * request.
     */
    Placed placeTunnel() {
        placed = parts.placer().locate(target, request.headers(), null, Placer.Slot.TUNNEL);
        return placed;
    }

    /** Counts the placement in the metrics. */
    void count() {
        parts.placer().count(placed);
    }

    private Placed hold(Placed where) {
        hold.run();
        placed = where;
        hold = where instanceof Placed.Admitted admitted ? SlotHold.of(admitted.slot()) : SlotHold.NONE;
        return where;
    }

    /** Gives the request slot back, once: run when the backend's answer was read to its end. */
    Runnable slotRelease() {
        return hold;
    }

    /** The request's learned carriers: the backend gets the original values, the client the sealed ones. */
    SessionCarrier carrier() {
        return placed == null ? SessionCarrier.NONE : placed.lookup().carrier();
    }

    /** The backend that answers, or refused: what the access log names. */
    Backend backend() {
        return switch (placed) {
            case Placed.Admitted admitted -> admitted.backend();
            case Placed.Refused refused -> refused.owner().orElse(null);
            case Placed.NoBackend none -> null;
            case null -> null;
        };
    }

    Outcome outcome() {
        return outcome;
    }

    /** How the request ended, for the metrics and the access log; answers nothing. */
    void ended(Outcome how) {
        outcome = how;
    }

    /**
     * Answers in the backend's place. A refusal's status is its placement's to say (a gone
     * session's is its route's); the connection closes after it when the head was refused or the
     * body was not read to its end, since what is left of it must never be read as the next request.
     */
    void answer(Outcome how) {
        outcome = how;
        int status = placed instanceof Placed.Refused refused && refused.reason() == how ? refused.status()
                : how.status().code();
        how.send(answer, how == Outcome.BAD_REQUEST || bodyLeftUnread(), status, requestId);
    }

    /**
     * The backend's response head arrived: the request is counted in its series when it ends.
     *
     * @param meters    the backend's series
     * @param headNanos from the first byte sent to it until its head arrived
     */
    void backendAnswered(BackendMeters meters, long headNanos) {
        answeredBy = meters;
        backendHeadNanos = headNanos;
    }

    /** From the first byte sent to the backend until its response head arrived; -1 when none did. */
    long backendHeadNanos() {
        return backendHeadNanos;
    }

    /** The request body bytes read from the client. */
    long bytesReceived() {
        return body == null ? 0 : body.bytesRead();
    }

    /** The tunnel this upgrade became has closed, having carried this many bytes to the client. */
    void tunnelled(long bytesToClient) {
        tunnelled = bytesToClient;
    }

    /** The status the client got. */
    int status() {
        return answer.status().code();
    }

    /** The body bytes the client got, or those the tunnel carried to it. */
    long bytesSent() {
        return tunnelled >= 0 ? tunnelled : answer.bytesWritten();
    }

    long started() {
        return started;
    }

    /**
     * Ends the request: gives back what it holds (its peek budget, its slot unless the answer's
     * end gave it back already), counts it in its route's and its backend's series, and writes
     * its access log line.
     */
    void end() {
        if (body != null) {
            body.releaseBudget();
        }
        hold.run();
        count(System.nanoTime() - started);
        AccessLog log = parts.accessLog();
        if (log != null) {
            log.log(this);
        }
    }

    // One update per request, into series resolved in advance. A tunnel's life is no latency.
    private void count(long nanos) {
        boolean cut = outcome == Outcome.BROKEN || outcome == Outcome.CLIENT_LEFT || outcome == Outcome.CLIENT_TIMEOUT;
        boolean tunnel = tunnelled >= 0;
        parts.metrics().route(placed == null ? null : placed.lookup().route())
                .ended(cut ? -1 : status(), tunnel ? -1 : nanos, backendHeadNanos, bytesReceived(), bytesSent());
        if (answeredBy != null && !tunnel) {
            answeredBy.ended(nanos);
        }
    }
}
