package io.insika.router.server.proxy;

import java.io.IOException;
import java.net.ProtocolException;
import java.time.Duration;
import java.util.Optional;
import java.util.Set;
import java.util.function.Supplier;

import io.helidon.http.HeaderNames;
import io.helidon.http.Method;
import io.helidon.webserver.CloseConnectionException;
import io.helidon.webserver.http.ServerRequest;
import io.helidon.webserver.http.ServerResponse;
import io.insika.router.api.Backend;
import io.insika.router.server.metrics.BackendError;
import io.insika.router.server.metrics.RouterMetrics;

/**
 * Sends one request to one backend and streams its answer back, byte for byte, in both
 * directions. It never picks a backend and never tries a second one.
 *
 * <p>It speaks HTTP/1.1 to the backend itself, over {@link BackendConnection}s, rather than
 * through Helidon's webclient: measured under wrk, the webclient's per-request objects, its timed
 * socket reads and its idle-connection watcher threads cost more CPU than the rest of the proxy
 * (see docs/benchmarks.md). Helidon still parses every client request and writes every answer.
 */
final class BackendForwarder implements AutoCloseable {

    private static final System.Logger LOGGER = System.getLogger(BackendForwarder.class.getName());
    // Each failed attempt drops one dead kept connection; a fresh connection that fails is final.
    private static final int STALE_CONNECTION_ATTEMPTS = 4;
    // Bodies up to this many bytes past the peek are written before the answer is read: they fit
    // in the sockets' buffers, so the backend cannot block us by answering early.
    private static final long INLINE_BODY = 64 * 1024;
    private static final Duration UPLOAD_SETTLE = Duration.ofMillis(100);

    private final BackendConnections connections;
    private final RouterMetrics metrics;
    private final ClientStallWatchdog clientWatchdog;
    private final TrustedProxies trustedProxies;

    /**
     * @param currentBackends the ids of the backends in the pool now
     * @param clientWatchdog  cuts a client that stops reading its answer
     */
    BackendForwarder(ProxySettings settings, Supplier<Set<String>> currentBackends, RouterMetrics metrics,
                     ClientStallWatchdog clientWatchdog) {
        this.connections = new BackendConnections(settings.backendTimeout(), currentBackends);
        this.metrics = metrics;
        this.clientWatchdog = clientWatchdog;
        this.trustedProxies = settings.trustedProxies();
    }

    /**
     * Forwards the request and relays the response.
     *
     * @param request  the client's request
     * @param response the client's response, not yet started
     * @param backend  the owner
     * @param body     the body, with any bytes already peeked; {@code null} when the request has none
     * @return empty when the response was relayed, else the failure to answer with, already counted
     * against the backend (nothing has been written to the client then)
     * @throws CloseConnectionException when the exchange broke after the response started, or
     *                                  the client vanished: the client connection must close
     */
    Optional<ProxyFailure> forward(ServerRequest request, ServerResponse response, Backend backend, BodyPeek body) {
        Method method = request.prologue().method();
        for (int attempt = 1; ; attempt++) {
            BackendConnections.Lease lease;
            try {
                lease = connections.acquire(backend);
            } catch (IOException | RuntimeException e) {
                LOGGER.log(System.Logger.Level.DEBUG, "cannot connect to " + backend.id(), e);
                return failed(backend, ProxyFailure.UNAVAILABLE); // nothing was sent
            }
            BackendConnection connection = lease.connection();
            RequestWriter writer = new RequestWriter(connection);
            Upload upload = null;
            boolean reusable;
            try {
                long sending = System.nanoTime();
                upload = send(request, body, writer, connection);
                ResponseHead head = ResponseHead.read(connection);
                int code = head.status();
                if (code == 101) {
                    // only UpgradeTunnel asks for a protocol switch; here the request had no Upgrade
                    throw new ProtocolException("backend switched protocols unasked");
                }
                metrics.backend(backend).answered(code, System.nanoTime() - sending);
                ResponseBody answer = ResponseBody.of(connection, head,
                        method == Method.HEAD || ResponseBody.bodiless(code));
                // an IOException from here on means nothing of the answer reached the client
                reusable = ResponseRelay.relay(response, head, answer, method == Method.HEAD, clientWatchdog::watch);
            } catch (IOException | RuntimeException e) {
                connections.discard(connection); // also ends an upload still writing
                stop(upload);
                switch (e) {
                    case ClientGoneException gone when gone.malformed() && !writer.started() -> {
                        return Optional.of(ProxyFailure.BAD_REQUEST);
                    }
                    case ClientGoneException gone ->
                            throw new ClientLeftException("client went away while sending its body", gone);
                    case BackendBrokeException broke -> {
                        metrics.backend(backend).failed(BackendError.BROKEN);
                        throw broke;
                    }
                    case ClientLeftException left -> throw left;
                    default -> {
                        // the exchange failed before anything reached the client: answered below
                    }
                }
                if (upload != null && upload.clientGone()) {
                    throw new ClientLeftException("client went away while sending its body", upload.failure);
                }
                // A kept connection that died idle fails on its first write: nothing was sent, so
                // another connection to the same owner is safe. Never another owner.
                if (!writer.started() && !lease.fresh() && attempt < STALE_CONNECTION_ATTEMPTS) {
                    LOGGER.log(System.Logger.Level.DEBUG, "stale kept connection to {0}; resending", backend.id());
                    continue;
                }
                LOGGER.log(System.Logger.Level.DEBUG, "exchange with " + backend.id() + " failed", e);
                return failed(backend, classify(writer.started(), connection));
            }
            boolean uploaded = upload == null || upload.succeeded();
            if (reusable && uploaded) {
                connections.release(connection);
            } else {
                connections.discard(connection);
            }
            if (!uploaded) {
                // Answered before the body ended (or the body failed): the rest of it will never be
                // read, so the client connection cannot carry another request.
                throw new CloseConnectionException("backend answered before the request body ended");
            }
            return Optional.empty();
        }
    }

    // Once the exchange failed, the upload must not go on reading the client: after this, what
    // the body says of itself (fully read or not) is final.
    private static void stop(Upload upload) {
        if (upload != null) {
            upload.stop();
        }
    }

    @Override
    public void close() {
        connections.close();
    }

    private Optional<ProxyFailure> failed(Backend backend, ProxyFailure failure) {
        metrics.backend(backend).failed(failure.error());
        return Optional.of(failure);
    }

    BackendConnections connections() {
        return connections;
    }

    /**
     * Sends the head and the body. A body that fits the sockets' buffers is written here; a longer
     * one streams on its own virtual thread while this one reads the answer, so a backend that
     * answers before reading it all (a 413) is heard, and one that answers while it reads (an
     * echo) never deadlocks against us.
     *
     * @return the upload still running, or {@code null} when all was sent
     */
    private Upload send(ServerRequest request, BodyPeek body, RequestWriter writer, BackendConnection connection)
            throws IOException {
        writer.requestLine(request.prologue());
        ForwardedHeaders.copy(request.prologue(), request.headers(), request.remotePeer().address(), request.isSecure(),
                HopByHopHeaders.of(request.headers()), trustedProxies, writer);
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
        return Upload.start(body, writer, connection);
    }

    // What the body really sent will be: Helidon has checked a Content-Length against the body
    // it reads; a chunked body keeps its unknown length; no body says nothing unless the client
    // said Content-Length: 0 (a POST with an empty body).
    private static long framing(ServerRequest request, BodyPeek body) {
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

        private Upload(BodyPeek body, RequestWriter writer, BackendConnection connection) {
            this.thread = Thread.ofVirtual().name("insika-upload").unstarted(() -> {
                try {
                    body.forwardRest(writer);
                    writer.finish();
                    done = true;
                } catch (ClientGoneException e) {
                    failure = e;
                    // Nobody waits for the answer: stop the reader, which may otherwise wait out
                    // backend-timeout for the body's rest. (Not on a failed write: the backend
                    // may have answered early, and that answer must still be read.)
                    connection.close();
                } catch (IOException | RuntimeException e) {
                    failure = e;
                }
            });
        }

        static Upload start(BodyPeek body, RequestWriter writer, BackendConnection connection) {
            Upload upload = new Upload(body, writer, connection);
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
    // retry. After, it may have acted on it. Timeouts on an exchange come only from the watchdog
    // (connecting happens in acquire()).
    private static ProxyFailure classify(boolean started, BackendConnection connection) {
        if (!started) {
            return ProxyFailure.UNAVAILABLE;
        }
        return connection.timedOut() ? ProxyFailure.BACKEND_TIMEOUT : ProxyFailure.BACKEND_FAILED;
    }
}
