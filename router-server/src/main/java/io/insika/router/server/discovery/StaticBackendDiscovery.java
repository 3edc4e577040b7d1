package io.insika.router.server.discovery;

import io.insika.router.server.config.StaticBackends;
import io.insika.router.server.routing.BackendPool;

/** A fixed list: the pool is filled once and never changes. */
public final class StaticBackendDiscovery implements BackendDiscovery {

    private StaticBackendDiscovery() {
    }

    /**
     * Puts the listed backends into the pool.
     *
     * @param backends the configured list
     * @param pool     the pool to fill
     * @return the (inert) discovery
     */
    public static StaticBackendDiscovery start(StaticBackends backends, BackendPool pool) {
        pool.update(backends.backends()).ifPresent(change -> BackendChangeLog.changed("static list", change));
        if (backends.backends().isEmpty()) {
            BackendChangeLog.empty("static list", "no backends are configured");
        }
        return new StaticBackendDiscovery();
    }

    @Override
    public void close() {
        // nothing runs
    }
}
