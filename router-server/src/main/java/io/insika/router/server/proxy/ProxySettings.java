package io.insika.router.server.proxy;

import java.io.OutputStream;
import java.time.Duration;
import java.util.Objects;
import java.util.Optional;

import io.insika.router.server.backends.BackendCapacity;
import io.insika.router.server.backends.HealthSettings;
import io.insika.router.server.logging.LogFormat;
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
    /** The seed's defaults, 256 KiB and 10 seconds; 60 s for a stalled client either way; no access log. */
    public static final ProxySettings DEFAULTS = new ProxySettings(262_144, Duration.ofSeconds(10));

    /** With the default client timeouts and limits, no access log and no trusted proxy. */
    public ProxySettings(int bodyMaxBytes, Duration backendTimeout) {
        this(bodyMaxBytes, backendTimeout, DEFAULT_CLIENT_BODY_TIMEOUT, DEFAULT_CLIENT_SEND_TIMEOUT, Optional.empty(),
                TrustedProxies.NONE, DEFAULT_MAX_REQUESTS, DEFAULT_PEEK_BUDGET, BackendCapacity.UNLIMITED,
                HealthSettings.DEFAULTS, SessionSeal.NONE, DEFAULT_STREAM_IDLE_TIMEOUT, 0,
                DEFAULT_CLIENT_BODY_MIN_RATE);
    }

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

    /** These settings, with an access log written to this stream in logfmt. */
    public ProxySettings withAccessLog(OutputStream out) {
        return withAccessLog(out, LogFormat.TEXT);
    }

    /** These settings, with an access log written to this stream in this format. */
    public ProxySettings withAccessLog(OutputStream out, LogFormat format) {
        return new ProxySettings(bodyMaxBytes, backendTimeout, clientBodyTimeout, clientSendTimeout,
                Optional.of(new AccessLogTarget(out, format)), trustedProxies, maxRequests, peekBudget, capacity, health,
                sessions, streamIdleTimeout, maxTunnels, clientBodyMinRate);
    }

    /** These settings, with this client body timeout. */
    public ProxySettings withClientBodyTimeout(Duration timeout) {
        return new ProxySettings(bodyMaxBytes, backendTimeout, timeout, clientSendTimeout, accessLog, trustedProxies,
                maxRequests, peekBudget, capacity, health, sessions, streamIdleTimeout, maxTunnels, clientBodyMinRate);
    }

    /** These settings, with this client send timeout. */
    public ProxySettings withClientSendTimeout(Duration timeout) {
        return new ProxySettings(bodyMaxBytes, backendTimeout, clientBodyTimeout, timeout, accessLog, trustedProxies,
                maxRequests, peekBudget, capacity, health, sessions, streamIdleTimeout, maxTunnels, clientBodyMinRate);
    }

    /** These settings, believing the forwarding headers of these peers. */
    public ProxySettings withTrustedProxies(TrustedProxies trusted) {
        return new ProxySettings(bodyMaxBytes, backendTimeout, clientBodyTimeout, clientSendTimeout, accessLog, trusted,
                maxRequests, peekBudget, capacity, health, sessions, streamIdleTimeout, maxTunnels, clientBodyMinRate);
    }

    /** These settings, with these overload limits. */
    public ProxySettings withLimits(int requests, int budget) {
        return new ProxySettings(bodyMaxBytes, backendTimeout, clientBodyTimeout, clientSendTimeout, accessLog,
                trustedProxies, requests, budget, capacity, health, sessions, streamIdleTimeout, maxTunnels, clientBodyMinRate);
    }

    /** These settings, with these backend slots. */
    public ProxySettings withCapacity(BackendCapacity slots) {
        return new ProxySettings(bodyMaxBytes, backendTimeout, clientBodyTimeout, clientSendTimeout, accessLog,
                trustedProxies, maxRequests, peekBudget, slots, health, sessions, streamIdleTimeout, maxTunnels, clientBodyMinRate);
    }

    /** These settings, with this health checking. */
    public ProxySettings withHealth(HealthSettings checks) {
        return new ProxySettings(bodyMaxBytes, backendTimeout, clientBodyTimeout, clientSendTimeout, accessLog,
                trustedProxies, maxRequests, peekBudget, capacity, checks, sessions, streamIdleTimeout, maxTunnels, clientBodyMinRate);
    }

    /** These settings, sealing learned session keys with this seal. */
    public ProxySettings withSessions(SessionSeal seal) {
        return new ProxySettings(bodyMaxBytes, backendTimeout, clientBodyTimeout, clientSendTimeout, accessLog,
                trustedProxies, maxRequests, peekBudget, capacity, health, seal, streamIdleTimeout, maxTunnels, clientBodyMinRate);
    }

    /** These settings, with this limit on an event stream's silences. */
    public ProxySettings withStreamIdleTimeout(Duration timeout) {
        return new ProxySettings(bodyMaxBytes, backendTimeout, clientBodyTimeout, clientSendTimeout, accessLog,
                trustedProxies, maxRequests, peekBudget, capacity, health, sessions, timeout, maxTunnels, clientBodyMinRate);
    }

    /** These settings, with this floor on a long upload's average rate. */
    public ProxySettings withClientBodyMinRate(long bytesPerSecond) {
        return new ProxySettings(bodyMaxBytes, backendTimeout, clientBodyTimeout, clientSendTimeout, accessLog,
                trustedProxies, maxRequests, peekBudget, capacity, health, sessions, streamIdleTimeout, maxTunnels,
                bytesPerSecond);
    }

    private static void positive(String name, Duration value) {
        Objects.requireNonNull(value, name);
        if (value.isNegative() || value.isZero()) {
            throw new IllegalArgumentException(name + ": [" + value + "] (expected: > 0)");
        }
    }
}
