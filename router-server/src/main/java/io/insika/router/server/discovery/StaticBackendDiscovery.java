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
        replace(backends, pool);
        return new StaticBackendDiscovery();
    }

    /**
     * Replaces the pool's backends with a reloaded list; logs what changed, if anything.
     *
     * @param backends the list now configured
     * @param pool     the pool to update
     */
    public static void replace(StaticBackends backends, BackendPool pool) {
        pool.update(backends.backends()).ifPresent(change -> BackendChangeLog.changed("static list", change));
        if (backends.backends().isEmpty()) {
            BackendChangeLog.empty("static list", "no backends are configured");
        }
    }

    @Override
    public void close() {
        // nothing runs
    }
}
