package io.insika.router.strategies.roundrobin;

import java.util.Set;

import io.insika.router.api.PluginOptions;
import io.insika.router.api.RouteStrategy;
import io.insika.router.api.RouteStrategyProvider;

/**
 * The {@code round-robin} strategy: ignores the key and hands out the backends in turn, in id
 * order, so n requests reach n backends once each. Each strategy made by {@link #create} has its
 * own rotation, which survives backend-set changes. It has no options.
 */
public final class RoundRobinRouteStrategyProvider implements RouteStrategyProvider {

    /** The name operators write in YAML. */
    public static final String NAME = "round-robin";

    @Override
    public String name() {
        return NAME;
    }

    @Override
    public RouteStrategy create(PluginOptions options) {
        options.requireOnly(Set.of());
        return new RoundRobinRouteStrategy();
    }
}
