package io.insika.router.server.plugin;

import java.util.Map;
import java.util.Optional;
import java.util.ServiceLoader;
import java.util.Set;
import java.util.TreeMap;
import java.util.function.Function;

import io.insika.router.api.KeyExtractorProvider;
import io.insika.router.api.RouteStrategyProvider;

/**
 * Every route strategy and key extractor the router can name, found by {@link ServiceLoader}.
 *
 * <p>Built once at start-up; immutable after. Two providers with the same name stop the start,
 * naming both classes and where they were loaded from.
 */
public final class PluginRegistry {

    private final Map<String, RouteStrategyProvider> strategies;
    private final Map<String, KeyExtractorProvider> extractors;

    private PluginRegistry(Map<String, RouteStrategyProvider> strategies, Map<String, KeyExtractorProvider> extractors) {
        this.strategies = strategies;
        this.extractors = extractors;
    }

    /**
     * The providers visible to a class loader.
     *
     * @param loader where to look
     * @return the registry
     * @throws IllegalStateException if two providers share a name
     */
    public static PluginRegistry load(ClassLoader loader) {
        return new PluginRegistry(
                byName(ServiceLoader.load(RouteStrategyProvider.class, loader), RouteStrategyProvider::name, "strategy"),
                byName(ServiceLoader.load(KeyExtractorProvider.class, loader), KeyExtractorProvider::type,
                        "key extractor type"));
    }

    /** The providers on the application's own class path: the built-ins. */
    public static PluginRegistry builtIn() {
        return load(PluginRegistry.class.getClassLoader());
    }

    public Optional<RouteStrategyProvider> strategy(String name) {
        return Optional.ofNullable(strategies.get(name));
    }

    public Optional<KeyExtractorProvider> extractor(String type) {
        return Optional.ofNullable(extractors.get(type));
    }

    /** Strategy names, sorted: what an error message lists as valid. */
    public Set<String> strategyNames() {
        return strategies.keySet();
    }

    /** Extractor types, sorted: what an error message lists as valid. */
    public Set<String> extractorTypes() {
        return extractors.keySet();
    }

    private static <T> Map<String, T> byName(Iterable<T> providers, Function<T, String> name, String what) {
        Map<String, T> found = new TreeMap<>();
        for (T provider : providers) {
            T clash = found.putIfAbsent(name.apply(provider), provider);
            if (clash != null) {
                throw new IllegalStateException(what + " [" + name.apply(provider) + "] is provided twice: by "
                        + origin(clash) + " and by " + origin(provider));
            }
        }
        return java.util.Collections.unmodifiableMap(found);
    }

    static String origin(Object provider) {
        var source = provider.getClass().getProtectionDomain().getCodeSource();
        return provider.getClass().getName() + (source == null ? "" : " (" + source.getLocation() + ")");
    }
}
