package io.insika.router.server.proxy;

import java.net.SocketTimeoutException;
import java.util.Optional;

import io.helidon.common.socket.SocketOptions;
import io.helidon.http.Method;
import io.helidon.webclient.api.HttpClientResponse;
import io.helidon.webclient.api.Proxy;
import io.helidon.webclient.api.WebClient;
import io.helidon.webclient.http1.Http1Client;
import io.helidon.webclient.http1.Http1ClientRequest;
import io.helidon.webserver.CloseConnectionException;
import io.helidon.webserver.http.ServerRequest;
import io.helidon.webserver.http.ServerResponse;
import io.insika.router.api.Backend;

/**
 * Sends one request to one backend and streams its answer back, byte for byte, in both
 * directions. It never picks a backend and never tries a second one.
 */
final class BackendForwarder implements AutoCloseable {

    private static final System.Logger LOGGER = System.getLogger(BackendForwarder.class.getName());
    // Each failed attempt drops one dead pooled connection; a fresh connect that fails is final.
    private static final int STALE_CONNECTION_ATTEMPTS = 4;
    private static final int WRITE_BUFFER = 2048;

    private final Http1Client client;
    private final BackendConnections connections;

    BackendForwarder(ProxySettings settings) {
        SocketOptions sockets = SocketOptions.builder()
                .tcpNoDelay(true)
                .connectTimeout(settings.backendTimeout())
                .readTimeout(settings.backendTimeout())
                .build();
        this.connections = new BackendConnections(WebClient.builder()
                .proxy(Proxy.noProxy())
                .socketOptions(sockets)
                // Helidon copies each write into this buffer through a scratch array as large as
                // its free space: 4 KiB (the default) cost ~8 KiB of garbage per request. Request
                // heads and small bodies still leave in one segment.
                .writeBufferSize(WRITE_BUFFER)
                .build());
        // Every default below is one a proxy must not keep: see shared/helidon-facts.md.
        this.client = Http1Client.builder()
                .followRedirects(false)
                .sendExpectContinue(false)
                .proxy(Proxy.noProxy())
                .shareConnectionCache(false)
                .contentEncoding(PassThroughEncoding.INSTANCE)
                .connectTimeout(settings.backendTimeout())
                .readTimeout(settings.backendTimeout())
                .socketOptions(sockets)
                .build();
    }

    /**
     * Forwards the request and relays the response.
     *
     * @param request  the client's request
     * @param response the client's response, not yet started
     * @param backend  the owner
     * @param body     the body, with any bytes already peeked; {@code null} when the request has none
     * @return empty when the response was relayed, else the failure to answer with (nothing has
     * been written to the client then)
     * @throws CloseConnectionException when the exchange broke after the response started, or
     *                                  the client vanished: the client connection must close
     */
    Optional<ProxyFailure> forward(ServerRequest request, ServerResponse response, Backend backend,
                                              BodyPeek body) {
        Method method = request.prologue().method();
        String target = target(request, backend);
        HttpClientResponse answer;
        for (int attempt = 1; ; attempt++) {
            BackendConnections.Lease lease;
            try {
                lease = connections.acquire(backend);
            } catch (RuntimeException e) {
                LOGGER.log(System.Logger.Level.DEBUG, "cannot connect to " + backend.id(), e);
                return Optional.of(ProxyFailure.UNAVAILABLE); // nothing was sent
            }
            boolean[] started = new boolean[1];
            try {
                answer = send(method, target, request, body, started, lease);
                break;
            } catch (ClientGoneException e) {
                lease.connection().closeResource();
                throw new CloseConnectionException("client went away while sending its body", e);
            } catch (RuntimeException e) {
                lease.connection().closeResource();
                // A kept connection that died idle fails before our body handler runs: nothing
                // was sent, so another connection to the same owner is safe. Never another owner.
                if (!started[0] && !lease.fresh() && attempt < STALE_CONNECTION_ATTEMPTS) {
                    LOGGER.log(System.Logger.Level.DEBUG, "stale kept connection to {0}; resending", backend.id());
                    continue;
                }
                LOGGER.log(System.Logger.Level.DEBUG, "exchange with " + backend.id() + " failed", e);
                return Optional.of(classify(e, started[0]));
            }
        }
        try (HttpClientResponse relayed = answer) {
            ResponseRelay.relay(method, response, relayed);
        }
        return Optional.empty();
    }

    @Override
    public void close() {
        connections.close();
        client.closeResource();
    }

    private HttpClientResponse send(Method method, String target, ServerRequest request, BodyPeek body,
                                    boolean[] started, BackendConnections.Lease lease) {
        Http1ClientRequest outgoing = client.method(method)
                .uri(target)
                .connection(lease.connection())
                .skipUriEncoding(true)
                .headers(headers -> ForwardedHeaders.copy(request, headers));
        if (method == Method.HEAD) {
            // HEAD has no body and is safe to send twice, so it needs no "started" marker.
            return outgoing.request();
        }
        return outgoing.outputStream(stream -> {
            started[0] = true;
            if (body != null) {
                body.forwardTo(stream);
            }
            stream.close();
        });
    }

    private static String target(ServerRequest request, Backend backend) {
        var prologue = request.prologue();
        String path = prologue.uriPath().rawPath();
        String base = backend.uri().getScheme() + "://" + backend.uri().getRawAuthority();
        return prologue.hasQuery() ? base + path + "?" + prologue.query().rawValue() : base + path;
    }

    // Connecting happens in acquire(); a failure here came after the connection was made. Before
    // our body handler ran nothing was sent, so the client may retry; after, it may have run.
    private static ProxyFailure classify(Throwable failure, boolean started) {
        if (!started) {
            return ProxyFailure.UNAVAILABLE;
        }
        for (Throwable cause = failure; cause != null; cause = cause.getCause()) {
            if (cause instanceof SocketTimeoutException) {
                return ProxyFailure.BACKEND_TIMEOUT;
            }
        }
        return ProxyFailure.BACKEND_FAILED;
    }
}
