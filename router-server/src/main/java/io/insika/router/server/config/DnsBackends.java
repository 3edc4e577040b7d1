package io.insika.router.server.config;

import java.net.InetSocketAddress;
import java.time.Duration;
import java.util.Objects;
import java.util.Optional;

/**
 * Backends found by resolving one DNS name (a Kubernetes headless Service) to all its A and AAAA
 * records, again every {@link #interval()}; each address with {@link #port()} is one backend.
 *
 * @param name     the fully qualified name to resolve, such as
 *                 {@code insika-headless.default.svc.cluster.local}; no search domains are
 *                 applied ({@code backends.dns.name}, {@code INSIKA_ROUTER_BACKENDS_DNS})
 * @param port     the port every resolved backend listens on, 1 to 65535; no default
 *                 ({@code backends.dns.port}, {@code INSIKA_ROUTER_BACKEND_PORT})
 * @param interval time between resolutions; default 15 s ({@code backends.dns.interval},
 *                 {@code INSIKA_ROUTER_DNS_INTERVAL})
 * @param resolver the DNS server asked; empty (the default) asks the system's resolvers from
 *                 {@code /etc/resolv.conf}, never through the JVM's own DNS cache
 *                 ({@code backends.dns.resolver})
 * @param timeout  how long one query may take before the resolution counts as failed; default
 *                 2 s ({@code backends.dns.timeout})
 * @param id       each resolved backend's placement id, from its address; default
 *                 {@code {host}:{port}} ({@code backends.dns.id})
 * @param publicAddress each resolved backend's public address, for redirects; none by default
 *                 ({@code backends.dns.public-address})
 */
public record DnsBackends(String name, int port, Duration interval, Optional<InetSocketAddress> resolver,
                          Duration timeout, AddressTemplate id, Optional<AddressTemplate> publicAddress)
        implements BackendSource {

    /** Seconds between resolutions when none is configured, as in the seed. */
    public static final Duration DEFAULT_INTERVAL = Duration.ofSeconds(15);

    /** Query timeout when none is configured. */
    public static final Duration DEFAULT_TIMEOUT = Duration.ofSeconds(2);

    public DnsBackends {
        Objects.requireNonNull(name, "name");
        Objects.requireNonNull(interval, "interval");
        Objects.requireNonNull(resolver, "resolver");
        Objects.requireNonNull(timeout, "timeout");
        Objects.requireNonNull(id, "id");
        Objects.requireNonNull(publicAddress, "publicAddress");
    }

    /** Placed by {@code host:port}, with no public address. */
    public DnsBackends(String name, int port, Duration interval, Optional<InetSocketAddress> resolver,
                       Duration timeout) {
        this(name, port, interval, resolver, timeout, AddressTemplate.DEFAULT_ID, Optional.empty());
    }
}
