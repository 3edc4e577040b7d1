package io.insika.router.strategies.rendezvous;

import java.util.Set;

import io.insika.router.api.PluginOptions;
import io.insika.router.api.RouteStrategy;
import io.insika.router.api.RouteStrategyProvider;

/**
 * The {@code rendezvous} strategy: weighted highest-random-weight hashing. Every backend scores
 * each key with {@code -weight / ln(h)}, h a fixed 64-bit hash of the key and the backend id
 * mapped into (0, 1), and the highest score owns the key. Removing a backend moves only its
 * keys; adding one takes keys only for itself. It has no options. The hash is defined exactly
 * in {@code docs/strategies.md}.
 */
public final class RendezvousRouteStrategyProvider implements RouteStrategyProvider {

    /** The name operators write in YAML. */
    public static final String NAME = "rendezvous";

    @Override
    public String name() {
        return NAME;
    }

    @Override
    public RouteStrategy create(PluginOptions options) {
        options.requireOnly(Set.of());
        return new RendezvousRouteStrategy();
    }
}
