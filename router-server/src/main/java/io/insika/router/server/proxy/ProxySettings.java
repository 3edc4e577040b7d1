package io.insika.router.server.proxy;

import java.time.Duration;
import java.util.Objects;
import java.util.Optional;

import io.insika.router.server.backends.BackendCapacity;
import io.insika.router.server.backends.HealthSettings;
import io.insika.router.server.session.SessionSeal;

/**
 * What the proxy needs to know of the configuration.
 *
 * @param bodyMaxBytes      how much of a body a key extractor may read ahead of forwarding; never
 *                          a limit on what is forwarded
 * @param backendTimeout    connect timeout, and the longest a backend may stay silent on a read
 * @param clientBodyTimeout the longest a client may pause while sending its request body; then
 *                          its connection is closed
 * @param clientSendTimeout the longest a client may leave its answer unread; then its
 *                          connection is closed
 * @param accessLog         where each request's access log line goes, and in which format; empty
 *                          for no access log
 * @param trustedProxies    the peers whose {@code X-Forwarded-*} headers are believed
 * @param maxRequests       how many proxied requests may be in flight at once; past it, the retry
 *                          envelope at once (WebSocket tunnels are not counted)
 * @param peekBudget        bytes all key peeks in flight may hold together beyond the first 8 KiB
 *                          of each; a peek that cannot grow waits a second, then its request gets
 *                          the retry envelope
 * @param capacity          each backend's request and tunnel slots
 * @param health            when a backend counts as down, and its active checks if any
 * @param sessions          seals the session ids backends mint on routes that learn their key;
 *                          {@link SessionSeal#NONE} when no secret is configured
 * @param streamIdleTimeout the longest a backend may stay silent once an event stream's head
 *                          reached the client (instead of {@code backendTimeout}); zero for no limit
 * @param maxTunnels        WebSocket tunnels open at once through the router; 0 for as many as the
 *                          heap allows ({@link OpenLimit#tunnelsForHeap})
 * @param clientBodyMinRate bytes per second a request body must average once it has taken longer
 *                          than {@code clientBodyTimeout}; 0 for no floor
 */
public record ProxySettings(int bodyMaxBytes, Duration backendTimeout, Duration clientBodyTimeout,
                            Duration clientSendTimeout, Optional<AccessLogTarget> accessLog,
                            TrustedProxies trustedProxies, int maxRequests, int peekBudget,
                            BackendCapacity capacity, HealthSettings health, SessionSeal sessions,
                            Duration streamIdleTimeout, int maxTunnels, long clientBodyMinRate) {

    /** As nginx's {@code client_body_timeout}. */
    public static final Duration DEFAULT_CLIENT_BODY_TIMEOUT = Duration.ofSeconds(60);
    /** As nginx's {@code send_timeout}. */
    public static final Duration DEFAULT_CLIENT_SEND_TIMEOUT = Duration.ofSeconds(60);
    /** Sized for the shipped heap's 64 MiB old generation: each request holds up to ~50 KiB of buffers besides its peek. */
    public static final int DEFAULT_MAX_REQUESTS = 1024;
    /** As Apache's mod_reqtimeout's MinRate: 500 bytes a second. */
    public static final long DEFAULT_CLIENT_BODY_MIN_RATE = 500;
    /** As long as an MCP server's notification stream may rightly stay quiet, and no longer. */
    public static final Duration DEFAULT_STREAM_IDLE_TIMEOUT = Duration.ofHours(1);
    /** Half the shipped heap's 64 MiB old generation. */
    public static final int DEFAULT_PEEK_BUDGET = 32 * 1024 * 1024;
    public ProxySettings {
        if (bodyMaxBytes < 1) {
            throw new IllegalArgumentException("body-max-bytes: [" + bodyMaxBytes + "] (expected: >= 1)");
        }
        positive("backend-timeout", backendTimeout);
        positive("client-body-timeout", clientBodyTimeout);
        positive("client-send-timeout", clientSendTimeout);
        Objects.requireNonNull(accessLog, "accessLog");
        Objects.requireNonNull(trustedProxies, "trustedProxies");
        if (maxRequests < 1) {
            throw new IllegalArgumentException("max-requests: [" + maxRequests + "] (expected: >= 1)");
        }
        if (peekBudget < 0) {
            throw new IllegalArgumentException("peek-budget: [" + peekBudget + "] (expected: >= 0)");
        }
        Objects.requireNonNull(capacity, "capacity");
        Objects.requireNonNull(health, "health");
        Objects.requireNonNull(sessions, "sessions");
        Objects.requireNonNull(streamIdleTimeout, "streamIdleTimeout");
        if (clientBodyMinRate < 0) {
            throw new IllegalArgumentException("client-body-min-rate: [" + clientBodyMinRate + "] (expected: >= 0)");
        }
        if (maxTunnels < 0) {
            throw new IllegalArgumentException("max-tunnels: [" + maxTunnels + "] (expected: >= 0)");
        }
        if (streamIdleTimeout.isNegative()) {
            throw new IllegalArgumentException("stream-idle-timeout: [" + streamIdleTimeout + "] (expected: >= 0)");
        }
    }

    private static void positive(String name, Duration value) {
        Objects.requireNonNull(value, name);
        if (value.isNegative() || value.isZero()) {
            throw new IllegalArgumentException(name + ": [" + value + "] (expected: > 0)");
        }
    }
}
