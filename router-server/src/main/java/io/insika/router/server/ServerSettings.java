package io.insika.router.server;

import java.time.Duration;
import java.util.Objects;

/**
 * Where the router listens and how long it lets requests finish when stopped.
 *
 * @param host          bind address of both sockets
 * @param port          the proxy's port; 0 picks a free one
 * @param adminPort     the observe endpoints' port, never proxied; 0 picks a free one
 * @param shutdownGrace how long in-flight requests may finish once the server stops accepting;
 *                      after it, the connections still busy are interrupted and closed
 */
public record ServerSettings(String host, int port, int adminPort, Duration shutdownGrace) {

    /** Helidon's own default grace; what a server started without one gets. */
    public static final Duration HELIDON_GRACE = Duration.ofMillis(500);

    public ServerSettings {
        Objects.requireNonNull(host, "host");
        Objects.requireNonNull(shutdownGrace, "shutdownGrace");
        if (shutdownGrace.isNegative()) {
            throw new IllegalArgumentException("shutdownGrace: [" + shutdownGrace + "] (expected: >= 0)");
        }
    }
}
