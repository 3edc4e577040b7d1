package io.insika.router.server.backends;

/**
 * How much one backend may be given at once. Zero means no limit: the router's own
 * {@code proxy.max-requests} still bounds everything.
 *
 * @param maxRequests proxied requests in flight to the backend at once, streams included;
 *                    0 for no limit
 * @param maxTunnels  WebSocket (and other upgraded) connections open to it at once; 0 for no
 *                    limit
 */
public record BackendLimits(int maxRequests, int maxTunnels) {

    /** No limit on either. */
    public static final BackendLimits NONE = new BackendLimits(0, 0);

    public BackendLimits {
        if (maxRequests < 0) {
            throw new IllegalArgumentException("max-requests: [" + maxRequests + "] (expected: >= 0)");
        }
        if (maxTunnels < 0) {
            throw new IllegalArgumentException("max-tunnels: [" + maxTunnels + "] (expected: >= 0)");
        }
    }
}
