package io.insika.router.server.proxy;

import java.time.Duration;
import java.util.Objects;

/**
 * What the proxy needs to know of the configuration.
 *
 * @param bodyMaxBytes   how much of a body a key extractor may read ahead of forwarding; never a
 *                       limit on what is forwarded
 * @param backendTimeout connect timeout, and the longest a backend may stay silent on a read
 */
public record ProxySettings(int bodyMaxBytes, Duration backendTimeout) {

    /** The seed's defaults: 256 KiB and 10 seconds. */
    public static final ProxySettings DEFAULTS = new ProxySettings(262_144, Duration.ofSeconds(10));

    public ProxySettings {
        if (bodyMaxBytes < 1) {
            throw new IllegalArgumentException("body-max-bytes: [" + bodyMaxBytes + "] (expected: >= 1)");
        }
        Objects.requireNonNull(backendTimeout, "backendTimeout");
        if (backendTimeout.isNegative() || backendTimeout.isZero()) {
            throw new IllegalArgumentException("backend-timeout: [" + backendTimeout + "] (expected: > 0)");
        }
    }
}
