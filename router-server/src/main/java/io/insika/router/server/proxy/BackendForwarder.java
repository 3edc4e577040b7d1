package io.insika.router.server.proxy;

import java.io.IOException;
import java.net.ProtocolException;
import java.time.Duration;

import io.helidon.http.HeaderNames;
import io.helidon.webserver.CloseConnectionException;
import io.insika.router.api.Backend;
import io.insika.router.server.backends.BackendState;
import io.insika.router.server.metrics.BackendError;
import io.insika.router.server.metrics.BackendMeters;
import io.insika.router.server.upstream.BackendClient;
import io.insika.router.server.upstream.BackendGoneException;
import io.insika.router.server.upstream.Exchange;
import io.insika.router.server.upstream.RequestWriter;
import io.insika.router.server.upstream.ResponseBody;
import io.insika.router.server.upstream.ResponseHead;

/**
 * Sends one request to one backend and streams its answer back, byte for byte, in both
 * directions. It never picks a backend and never tries a second one. The backend side is the
 * router's own HTTP/1.1 client ({@link BackendClient}); the client side is the request's
 * {@link ProxyCall}, whichever connection framed it.
 */
final class BackendForwarder {

    private static final System.Logger LOGGER = System.getLogger(BackendForwarder.class.getName());
    // Each failed attempt drops one dead kept connection; a fresh connection that fails is final.
    private static final int STALE_CONNECTION_ATTEMPTS = 4;
    // Bodies up to this many bytes past the peek are written before the answer is read: they fit
    // in the sockets' buffers, so the backend cannot block us by answering early.
    private static final long INLINE_BODY = 64 * 1024;
    private static final Duration UPLOAD_SETTLE = Duration.ofMillis(100);

    private BackendForwarder() {
    }

    /**
     * Forwards the request to the backend it was admitted to and relays the response; the
     * backend's state is told of a failed connect (down for a while) and of an answer (up), and
     * the request's slot is given back once the answer was read to its end.
     *
     * @param call  the request, its answer not yet started
     * @param owner where it was admitted
     * @return {@link Outcome#RELAYED} when the response was relayed, else the failure to answer
     * with, already counted against the backend (nothing has been written to the client then)
     * @throws CloseConnectionException when the exchange broke after the response started, or
     *                                  the client vanished: the client connection must close
     */
    static Outcome forward(ProxyCall call, Placed.Admitted owner) {
        ProxyParts parts = call.parts();
        Backend backend = owner.backend();
        BackendState state = owner.slot();
        BodyPeek body = call.body();
        for (int attempt = 1; ; attempt++) {
            Exchange exchange;
            try {
                exchange = parts.connect(backend, state);
            } catch (IOException | RuntimeException e) {
                LOGGER.log(System.Logger.Level.DEBUG, "cannot connect to " + backend.id(), e);
                return Outcome.UNAVAILABLE; // nothing was sent
            }
            RequestWriter writer = exchange.request();
            Upload upload = null;
            boolean reusable;
            try {
                long sending = System.nanoTime();
                upload = send(call, exchange);
                ResponseHead head = exchange.readHead();
                int code = head.status();
                if (code == 101) {
                    // only UpgradeTunnel asks for a protocol switch; here the request had no Upgrade
                    throw new ProtocolException("backend switched protocols unasked");
                }
                long headNanos = System.nanoTime() - sending;
                BackendMeters meters = parts.metrics().backend(backend);
                meters.answered(code, headNanos);
                call.backendAnswered(meters, headNanos);
                state.answered();
                ResponseBody answer = exchange.body(head, call.isHead() || ResponseBody.bodiless(code));
                // an IOException from here on means nothing of the answer reached the client
                reusable = ResponseRelay.relay(call, head, answer);
            } catch (IOException | RuntimeException e) {
                exchange.discard(); // also ends an upload still writing
                stop(upload);
                switch (e) {
                    // the client's fault, answered 400 (the backend got no complete request), never
                    // counted against the backend
                    case ClientGoneException gone when gone.malformed() -> {
                        return Outcome.BAD_REQUEST;
                    }
                    case ClientGoneException gone ->
                            throw new ClientLeftException("client went away while sending its body", gone);
                    case BackendBrokeException broke -> {
                        parts.failed(backend, state, BackendError.BROKEN, broke.getCause());
                        throw broke;
                    }
                    case ClientLeftException left -> throw left;
                    default -> {
                        // the exchange failed before anything reached the client: answered below
                    }
                }
                if (upload != null && upload.clientGone()) {
                    if (upload.malformed()) {
                        return Outcome.BAD_REQUEST; // nothing of the answer was relayed
                    }
                    throw new ClientLeftException("client went away while sending its body", upload.failure);
                }
                // A kept connection that died idle fails on its first write: nothing was sent, so
                // another connection to the same owner is safe while the body is all still here.
                // Never another owner.
                if (!writer.started() && !exchange.fresh() && attempt < STALE_CONNECTION_ATTEMPTS
                        && (body == null || body.replayable())) {
                    LOGGER.log(System.Logger.Level.DEBUG, "stale kept connection to {0}; resending", backend.id());
                    continue;
                }
                if (e instanceof SessionCarrier.Unsealable) {
                    LOGGER.log(System.Logger.Level.WARNING, "backend {0}: {1}; answered 502", backend.id(), e.getMessage());
                }
                LOGGER.log(System.Logger.Level.DEBUG, "exchange with " + backend.id() + " failed", e);
                Outcome failure = classify(writer.started(), exchange, e);
                parts.failed(backend, state, failure.error(), e);
                return failure;
            }
            boolean uploaded = upload == null || upload.succeeded();
            if (reusable && uploaded) {
                exchange.release();
            } else {
                exchange.discard();
            }
            if (!uploaded) {
                // Answered before the body ended (or the body failed): the rest of it will never be
                // read, so the client connection cannot carry another request.
                throw new CloseConnectionException("backend answered before the request body ended");
            }
            return Outcome.RELAYED;
        }
    }

    // Once the exchange failed, the upload must not go on reading the client: after this, what
    // the body says of itself (fully read or not) is final.
    private static void stop(Upload upload) {
        if (upload != null) {
            upload.stop();
        }
    }

    /**
     * Sends the head and the body. A body that fits the sockets' buffers is written here; a longer
     * one streams on its own virtual thread while this one reads the answer, so a backend that
     * answers before reading it all (a 413) is heard, and one that answers while it reads (an
     * echo) never deadlocks against us.
     *
     * @return the upload still running, or {@code null} when all was sent
     */
    private static Upload send(ProxyCall call, Exchange exchange) throws IOException {
        ClientRequest request = call.request();
        BodyPeek body = call.body();
        RequestWriter writer = exchange.request();
        writer.requestLine(request.prologue().method().text(), call.target().originForm());
        ForwardedHeaders.copy(call, HopByHopHeaders.of(request.headers()), writer);
        writer.endHead(framing(request, body));
        if (body == null) {
            writer.finish();
            return null;
        }
        body.forwardPeeked(writer);
        long rest = body.unpeekedLength();
        if (rest >= 0 && rest <= INLINE_BODY) {
            body.forwardRest(writer);
            writer.finish();
            return null;
        }
        writer.flushBuffered();
        return Upload.start(body, exchange);
    }

    // What the body really sent will be: its reader (Helidon's, or LeanBody) holds a
    // Content-Length to the body it reads; a chunked body keeps its unknown length; no body
    // says nothing unless the client said Content-Length: 0 (a POST with an empty body).
    private static long framing(ClientRequest request, BodyPeek body) {
        if (body == null) {
            return request.headers().contains(HeaderNames.CONTENT_LENGTH) ? 0 : RequestWriter.NO_BODY;
        }
        long declared = body.declaredLength();
        return declared >= 0 ? declared : RequestWriter.CHUNKED;
    }

    /** A request body streaming to the backend on its own virtual thread. */
    private static final class Upload {
        private final Thread thread;
        private volatile Throwable failure;
        private volatile boolean done;

        private Upload(BodyPeek body, Exchange exchange) {
            this.thread = Thread.ofVirtual().name("insika-upload").unstarted(() -> {
                try {
                    body.forwardRest(exchange.request());
                    exchange.request().finish();
                    done = true;
                } catch (ClientGoneException e) {
                    failure = e;
                    // Nobody waits for the answer: stop the reader, which may otherwise wait out
                    // backend-timeout for the body's rest. (Not on a failed write: the backend
                    // may have answered early, and that answer must still be read.)
                    exchange.discard();
                } catch (IOException | RuntimeException e) {
                    failure = e;
                }
            });
        }

        static Upload start(BodyPeek body, Exchange exchange) {
            Upload upload = new Upload(body, exchange);
            upload.thread.start();
            return upload;
        }

        // The backend's answer is complete; an upload that is still running is waited for only
        // briefly: a backend that answered normally has read the whole body already.
        boolean succeeded() {
            if (!done && failure == null) {
                try {
                    thread.join(UPLOAD_SETTLE);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
            }
            return done;
        }

        boolean clientGone() {
            return failure instanceof ClientGoneException;
        }

        boolean malformed() {
            return failure instanceof ClientGoneException gone && gone.malformed();
        }

        // Interrupting a virtual thread blocked on a socket closes that socket: the client's,
        // if it was waiting for body bytes, which ends the request's connection as it must.
        void stop() {
            if (!done && failure == null) {
                thread.interrupt();
                try {
                    thread.join(UPLOAD_SETTLE);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
            }
        }
    }

    // Before our first byte went out the backend cannot have seen the request: the client may
    // retry. After, it may have acted on it, unless it had gone with the kept connection the
    // request was written to (BackendGoneException). Timeouts on an exchange come only from the
    // watchdog (connecting happens in acquire()).
    static Outcome classify(boolean started, Exchange exchange, Exception failure) {
        if (!started || failure instanceof BackendGoneException) {
            return Outcome.UNAVAILABLE;
        }
        return exchange.timedOut() ? Outcome.BACKEND_TIMEOUT : Outcome.BACKEND_FAILED;
    }
}
