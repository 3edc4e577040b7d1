package io.insika.router.server;

import java.time.Duration;
import java.util.Objects;
import java.util.Optional;

import io.insika.router.server.proxy.Http2Settings;
import io.insika.router.server.tls.TlsSettings;

/**
 * Where the router listens and how long it lets requests finish when stopped.
 *
 * @param host          bind address of the proxy's socket
 * @param port          the proxy's port; 0 picks a free one
 * @param adminHost     bind address of the observe endpoints' socket: {@code host}, unless the
 *                      admin port is kept to a narrower network (loopback, an operator network)
 * @param adminPort     the observe endpoints' port, never proxied; 0 picks a free one
 * @param shutdownGrace how long in-flight requests may finish once the server stops accepting;
 *                      after it, the connections still busy are interrupted and closed
 * @param stopDelay     how long a stopping router keeps accepting, readiness already down,
 *                      before it stops accepting: the time load balancers need to notice
 * @param maxConnections client connections the proxy port holds at once, 0 for what half the heap
 *                      holds; past it (and a small reserve answered at once), Helidon accepts no
 *                      more until one closes (they wait in the listen backlog)
 * @param leanHttp1     whether the router frames plain HTTP/1.1 requests itself, handing a
 *                      connection to Helidon's HTTP/1 at its first other request; else Helidon
 *                      frames every request
 * @param headTimeout   how long a request head may take to arrive whole, from its first byte
 * @param idleTimeout   how long a client connection may wait for its next request
 * @param tls           TLS on the proxy port (and the admin port, if it says so); empty: plain HTTP
 */
public record ServerSettings(String host, int port, String adminHost, int adminPort, Duration shutdownGrace,
                             Duration stopDelay, int maxConnections, boolean leanHttp1, Duration headTimeout,
                             Duration idleTimeout, Optional<TlsSettings> tls, Http2Settings http2) {

    /**
     * {@code server.max-connections} by default: 0, as many as half the heap holds
     * ({@link io.insika.router.server.proxy.OpenLimit#connectionLimit}).
     */
    public static final int DEFAULT_MAX_CONNECTIONS = 0;

    /** As HAProxy's {@code timeout http-request} is commonly set; nginx's client_header_timeout is 60 s. */
    public static final Duration DEFAULT_HEAD_TIMEOUT = Duration.ofSeconds(30);
    /** As nginx's {@code keepalive_timeout} (75 s) and HAProxy's {@code timeout http-keep-alive}, about a minute. */
    public static final Duration DEFAULT_IDLE_TIMEOUT = Duration.ofSeconds(60);

    /** Helidon's own default grace; what a server started without one gets. */
    public static final Duration HELIDON_GRACE = Duration.ofMillis(500);

    public ServerSettings {
        Objects.requireNonNull(host, "host");
        Objects.requireNonNull(adminHost, "adminHost");
        Objects.requireNonNull(tls, "tls");
        Objects.requireNonNull(http2, "http2");
        notNegative("shutdownGrace", shutdownGrace);
        notNegative("stopDelay", stopDelay);
        positive("headTimeout", headTimeout);
        positive("idleTimeout", idleTimeout);
        if (maxConnections < 0) {
            throw new IllegalArgumentException("maxConnections: [" + maxConnections + "] (expected: >= 0)");
        }
    }

    /** The same settings with the observe endpoints on this port instead. */
    public ServerSettings withAdminPort(int port) {
        return new ServerSettings(host, this.port, adminHost, port, shutdownGrace, stopDelay, maxConnections, leanHttp1,
                headTimeout, idleTimeout, tls, http2);
    }

    private static void positive(String name, Duration value) {
        notNegative(name, value);
        if (value.isZero()) {
            throw new IllegalArgumentException(name + ": [" + value + "] (expected: > 0)");
        }
    }

    private static void notNegative(String name, Duration value) {
        Objects.requireNonNull(value, name);
        if (value.isNegative()) {
            throw new IllegalArgumentException(name + ": [" + value + "] (expected: >= 0)");
        }
    }
}
