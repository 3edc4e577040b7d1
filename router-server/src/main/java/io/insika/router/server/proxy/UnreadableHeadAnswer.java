package io.insika.router.server.proxy;

import io.helidon.http.DirectHandler;
import io.helidon.http.ServerResponseHeaders;
import io.helidon.http.Status;
import io.helidon.webserver.http.DirectHandlers;

/**
 * Helidon's answer to a client head it failed to read: 400, where Helidon 4.5 answers 500. Its
 * HTTP/1 connection reads a method that is not a token ({@code G(T}) by letting
 * {@code Method.create} throw, and answers what it did not expect with 500 and a stack trace at
 * WARNING: a log line per request, for anyone who sends one. Such a failure carries no request
 * line (Helidon reports one raised in routing, a handler's, with its request), so nothing but the
 * client's bytes was being read when it happened. The lean connection hands such heads to
 * Helidon too, so this one answer serves both paths. (An upgrade handler that throws before it
 * answered fails the same way; {@link UpgradeTunnel} catches what it can expect itself, and
 * Helidon still logs the rest at DEBUG.)
 */
public final class UnreadableHeadAnswer implements DirectHandler {

    private static final DirectHandler HELIDON = DirectHandler.defaultHandler();

    private UnreadableHeadAnswer() {
    }

    /** Helidon's direct handlers, with this one for its internal errors. */
    public static DirectHandlers handlers() {
        return DirectHandlers.builder().addHandler(EventType.INTERNAL_ERROR, new UnreadableHeadAnswer()).build();
    }

    @Override
    public TransportResponse handle(TransportRequest request, EventType event, Status status,
                                    ServerResponseHeaders headers, String message) {
        if (event == EventType.INTERNAL_ERROR && request == TransportRequest.empty()) {
            return HELIDON.handle(request, EventType.BAD_REQUEST, Status.BAD_REQUEST_400, headers, message);
        }
        return HELIDON.handle(request, event, status, headers, message);
    }
}
