package io.insika.router.server.proxy;

import io.insika.router.server.metrics.RouterMetrics;
import io.insika.router.server.upstream.BackendClient;

/**
 * What the proxy and the WebSocket tunnel share, built once per router: they place alike, send
 * over the same connections, and count and log in the same places.
 *
 * @param placer         where a request goes
 * @param client         the connections to the backends
 * @param metrics        what the admin port exports
 * @param accessLog      the access log, or {@code null} when it is off
 * @param trustedProxies the peers whose forwarding headers are believed
 */
record ProxyParts(Placer placer, BackendClient client, RouterMetrics metrics, AccessLog accessLog,
                  TrustedProxies trustedProxies) {
}
