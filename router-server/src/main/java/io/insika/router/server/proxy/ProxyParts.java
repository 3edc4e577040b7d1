package io.insika.router.server.proxy;

import java.io.IOException;

import io.insika.router.api.Backend;
import io.insika.router.server.backends.BackendState;
import io.insika.router.server.metrics.BackendError;
import io.insika.router.server.metrics.RouterMetrics;
import io.insika.router.server.upstream.BackendClient;
import io.insika.router.server.upstream.Exchange;

/**
 * What the proxy and the WebSocket tunnel share, for one configuration: they place alike, send
 * over the same connections, and count and log in the same places. A reload makes new parts; a
 * request or tunnel reads them once, when it begins, and keeps them to its end.
 *
 * @param settings  the proxy settings these parts were made from
 * @param placer    where a request goes
 * @param client    the connections to the backends (the same across reloads)
 * @param metrics   what the admin port exports
 * @param accessLog the access log, or {@code null} when it is off
 * @param tunnels   the router's tunnel slots (the same across reloads)
 * @param watchdog  cuts a client that stalls sending its body or reading its answer (the same
 *                  across reloads)
 * @param peekBudget what key peeks may hold together (the same across reloads)
 */
record ProxyParts(ProxySettings settings, Placer placer, BackendClient client, RouterMetrics metrics,
                  AccessLog accessLog, OpenLimit tunnels, ClientStallWatchdog watchdog, PeekBudget peekBudget) {

    /** A request begun with these parts, which it keeps to its end. */
    ProxyCall call(ClientRequest request, ClientAnswer answer) {
        return new ProxyCall(this, request, answer);
    }

    /** The peers whose forwarding headers are believed. */
    TrustedProxies trustedProxies() {
        return settings.trustedProxies();
    }

    /**
     * A connection to a backend for one exchange. A connect that fails is counted against the
     * backend and marks it down for a while.
     *
     * @throws IOException if the backend cannot be reached: nothing was sent
     */
    Exchange connect(Backend backend, BackendState state) throws IOException {
        try {
            return client.exchange(backend);
        } catch (IOException | RuntimeException e) {
            metrics.backend(backend).failed(BackendError.UNREACHABLE);
            state.connectFailed(e);
            throw e;
        }
    }

    /** An exchange failed after connecting: counted against the backend, and its last error. */
    void failed(Backend backend, BackendState state, BackendError error, Throwable cause) {
        metrics.backend(backend).failed(error);
        state.failed(error.label(), cause);
    }
}
