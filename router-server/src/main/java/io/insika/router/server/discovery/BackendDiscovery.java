package io.insika.router.server.discovery;

import io.insika.router.server.config.BackendSource;
import io.insika.router.server.config.DnsBackends;
import io.insika.router.server.config.StaticBackends;
import io.insika.router.server.routing.BackendPool;

/**
 * Keeps a {@link BackendPool} filled from the configured {@link BackendSource}. Started once at
 * start-up, after which the pool already holds the first answer; closed at shutdown.
 */
public interface BackendDiscovery extends AutoCloseable {

    /**
     * Fills the pool now and, for DNS, keeps it current until closed.
     *
     * @param source the configured backends
     * @param pool   the pool to update
     * @return the running discovery
     */
    static BackendDiscovery start(BackendSource source, BackendPool pool) {
        return switch (source) {
            case StaticBackends list -> StaticBackendDiscovery.start(list, pool);
            case DnsBackends dns -> DnsBackendDiscovery.start(dns, pool);
        };
    }

    /** Stops updating the pool; the pool keeps its last backends. Never throws. */
    @Override
    void close();
}
