package io.insika.router.server.routing;

import java.util.Objects;

import io.insika.router.api.PluginOptions;

/**
 * Which strategy places keyed requests: what the backend pool is built with.
 *
 * @param name                the strategy provider's name, such as {@code ketama}
 * @param options             its options as it resolved them, defaults written out
 *                            ({@link io.insika.router.api.RouteStrategyProvider#resolve}), so that
 *                            a default written out and one left out are equal
 * @param allowChangeOnReload whether a reload may replace name or options, which moves most
 *                            sessions ({@code strategy.allow-change-on-reload})
 */
public record StrategySettings(String name, PluginOptions options, boolean allowChangeOnReload) {

    public StrategySettings {
        Objects.requireNonNull(name, "name");
        Objects.requireNonNull(options, "options");
    }
}
