package io.insika.router.server.config;

import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.function.Supplier;

import io.insika.router.api.KeyExtractorProvider;
import io.insika.router.api.PluginConfigException;
import io.insika.router.api.PluginOptions;
import io.insika.router.api.RouteStrategyProvider;
import io.insika.router.server.plugin.PluginRegistry;
import io.insika.router.server.routing.ExtractorSpec;
import io.insika.router.server.routing.RouteSpec;
import io.insika.router.server.routing.RouteTable;

/**
 * Checks the strategy and every key extractor by building them through their providers, exactly
 * as the server will, so a bad plugin option stops the start rather than the first request. It
 * runs beside every other check, so one run of {@code check} reports them all.
 */
final class PluginCheck {

    private final PluginRegistry registry;
    private final SettingReader reader;

    PluginCheck(PluginRegistry registry, SettingReader reader) {
        this.registry = registry;
        this.reader = reader;
    }

    /**
     * @param label   how to name the strategy in a message: {@code strategy.name} or the variable
     * @param name    the strategy's name
     * @param options its options
     * @return the options resolved by the strategy, its defaults written out, so that a default
     *         written out and one left out compare (and fingerprint) alike; as given after a problem
     */
    PluginOptions strategy(String label, String name, PluginOptions options) {
        Optional<RouteStrategyProvider> provider = registry.strategy(name);
        if (provider.isEmpty()) {
            reader.problem(label + ": [" + name + "] (known: " + known(registry.strategyNames()) + ")");
            return options;
        }
        RouteStrategyProvider strategy = provider.get();
        return create(options.path(), () -> {
            strategy.create(options);
            return strategy.resolve(options);
        }).orElse(options);
    }

    /**
     * @param extractors every key entry read, each named by its options' path, its route valid or not
     * @param routes     the routes read
     * @param whole      whether every entry became a route: only then does the table name the
     *                   file's {@code routes[i]}, and only then is it assembled
     */
    void routes(List<ExtractorSpec> extractors, List<RouteSpec> routes, boolean whole) {
        int before = reader.problems().size();
        for (ExtractorSpec key : extractors) {
            Optional<KeyExtractorProvider> provider = registry.extractor(key.type());
            if (provider.isEmpty()) {
                reader.problem(key.options().path() + ".type: [" + key.type() + "] (known: "
                        + known(registry.extractorTypes()) + ")");
            } else {
                create(key.options().path(), () -> provider.get().create(key.options()));
            }
        }
        if (whole && reader.problems().size() == before) {
            // the server's own assembly: also checks every path template
            create("routes", () -> RouteTable.build(routes, registry));
        }
    }

    private <T> Optional<T> create(String label, Supplier<T> build) {
        try {
            return Optional.ofNullable(build.get());
        } catch (PluginConfigException e) {
            reader.problem(e.getMessage());
        } catch (RuntimeException e) {
            reader.problem(label + ": the plugin failed to start (" + e + ")");
        }
        return Optional.empty();
    }

    private static String known(Set<String> names) {
        return names.isEmpty() ? "none installed" : String.join(", ", names);
    }
}
