package io.insika.router.server.discovery;

import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.URI;
import java.net.URISyntaxException;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

import io.insika.router.api.Backend;
import io.insika.router.server.config.DnsBackends;
import io.insika.router.server.routing.BackendPool;

/**
 * Re-resolves a Kubernetes headless Service every interval and hands the addresses, each with
 * the configured port, to the pool, which rebuilds its pickers only when the set changed (record
 * order never matters). A failed resolution keeps the last known set: a DNS hiccup must not
 * empty the ring and move every session. An answer with no records does empty it, since that
 * is what a Service with no ready pod says. A and AAAA are trusted separately
 * ({@link DnsFamilies}): one family failing never discards the other's answer.
 */
public final class DnsBackendDiscovery implements BackendDiscovery {

    private final DnsBackends settings;
    private final BackendPool pool;
    private final DnsAddressLookup lookup;
    private final DnsFamilies families;
    private final String source;
    private final AtomicLong resolutions = new AtomicLong();
    private final AtomicLong failures = new AtomicLong();
    private final ScheduledExecutorService schedule;

    private DnsBackendDiscovery(DnsBackends settings, BackendPool pool) {
        this.settings = settings;
        this.pool = pool;
        this.lookup = new DnsAddressLookup(settings.name(), settings.resolver(), settings.timeout());
        this.source = "DNS " + settings.name() + settings.resolver().map(r -> " @" + server(r)).orElse("");
        this.families = new DnsFamilies(source);
        this.schedule = Executors.newSingleThreadScheduledExecutor(
                Thread.ofVirtual().name("insika-dns-" + settings.name()).factory());
    }

    /**
     * Resolves once now, so the router starts with backends if DNS answers, then every
     * {@link DnsBackends#interval()} until closed.
     *
     * @param settings the name, port, interval, server and timeout
     * @param pool     the pool to keep current
     * @return the running discovery
     */
    public static DnsBackendDiscovery start(DnsBackends settings, BackendPool pool) {
        DnsBackendDiscovery discovery = new DnsBackendDiscovery(settings, pool);
        discovery.resolveOnce();
        long interval = settings.interval().toNanos();
        discovery.schedule.scheduleWithFixedDelay(discovery::resolveOnce, interval, interval, TimeUnit.NANOSECONDS);
        return discovery;
    }

    /** How many resolutions have finished, answered or failed; lets tests and metrics see progress. */
    public long resolutions() {
        return resolutions.get();
    }

    /** How many resolutions failed (and kept the last set). */
    public long failures() {
        return failures.get();
    }

    private void resolveOnce() {
        try {
            switch (families.merge(lookup.resolve())) {
                case DnsAnswer.Addresses answer -> apply(answer.addresses());
                case DnsAnswer.Failure failure -> {
                    failures.incrementAndGet();
                    BackendChangeLog.failed(source, failure.reason(), pool.snapshot().backends().size());
                }
            }
        } catch (RuntimeException e) {
            // the schedule must survive anything, or discovery would silently stop
            failures.incrementAndGet();
            BackendChangeLog.failed(source, e.toString(), pool.snapshot().backends().size());
        } finally {
            resolutions.incrementAndGet();
        }
    }

    private void apply(List<InetAddress> addresses) {
        List<Backend> backends = addresses.stream().map(this::backend).toList();
        pool.update(backends).ifPresent(change -> {
            BackendChangeLog.changed(source, change);
            if (change.current().isEmpty()) {
                BackendChangeLog.empty(source, "the name has no A or AAAA records");
            }
        });
    }

    private Backend backend(InetAddress address) {
        try {
            String ip = AddressText.of(address);
            Backend backend = Backend.of(new URI("http", null, ip, settings.port(), null, null, null));
            String id = settings.id().apply(ip, settings.port());
            if (!id.equals(backend.id())) {
                backend = backend.withId(id);
            }
            return settings.publicAddress().flatMap(template -> publicAddress(template.apply(ip, settings.port())))
                    .map(backend::withPublicAddress).orElse(backend);
        } catch (URISyntaxException e) {
            throw new IllegalStateException("an IP literal always makes a URI: " + address, e);
        }
    }

    // {ip} of an IPv6 address makes no URI without brackets: that backend is proxied to, never redirected
    private static Optional<URI> publicAddress(String text) {
        try {
            return Optional.of(new URI(text)).filter(uri -> uri.getHost() != null);
        } catch (URISyntaxException e) {
            return Optional.empty();
        }
    }

    private static String server(InetSocketAddress address) {
        String host = AddressText.of(address.getAddress());
        return (host.contains(":") ? "[" + host + "]" : host) + ":" + address.getPort();
    }

    @Override
    public void close() {
        schedule.shutdownNow();
        try {
            schedule.awaitTermination(settings.timeout().toMillis() * 2 + 1000, TimeUnit.MILLISECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
