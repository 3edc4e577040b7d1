package io.insika.router.server.proxy;

import java.io.OutputStream;
import java.time.Duration;
import java.util.Objects;
import java.util.Optional;

/**
 * What the proxy needs to know of the configuration.
 *
 * @param bodyMaxBytes   how much of a body a key extractor may read ahead of forwarding; never a
 *                       limit on what is forwarded
 * @param backendTimeout connect timeout, and the longest a backend may stay silent on a read
 * @param accessLog      where each request's access log line goes; empty for no access log
 */
public record ProxySettings(int bodyMaxBytes, Duration backendTimeout, Optional<OutputStream> accessLog) {

    /** The seed's defaults: 256 KiB and 10 seconds; no access log. */
    public static final ProxySettings DEFAULTS = new ProxySettings(262_144, Duration.ofSeconds(10));

    /** Without an access log. */
    public ProxySettings(int bodyMaxBytes, Duration backendTimeout) {
        this(bodyMaxBytes, backendTimeout, Optional.empty());
    }

    public ProxySettings {
        if (bodyMaxBytes < 1) {
            throw new IllegalArgumentException("body-max-bytes: [" + bodyMaxBytes + "] (expected: >= 1)");
        }
        Objects.requireNonNull(backendTimeout, "backendTimeout");
        Objects.requireNonNull(accessLog, "accessLog");
        if (backendTimeout.isNegative() || backendTimeout.isZero()) {
            throw new IllegalArgumentException("backend-timeout: [" + backendTimeout + "] (expected: > 0)");
        }
    }
}
