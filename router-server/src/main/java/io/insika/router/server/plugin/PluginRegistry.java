package io.insika.router.server.plugin;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.ServiceConfigurationError;
import java.util.ServiceLoader;
import java.util.Set;
import java.util.TreeMap;
import java.util.function.Function;

import io.insika.router.api.KeyExtractorProvider;
import io.insika.router.api.RouteStrategyProvider;

/**
 * Every route strategy and key extractor the router can name, found by {@link ServiceLoader}:
 * the built-ins on the application class path, then each plugin jar's own.
 *
 * <p>Built once at start-up; immutable after. Two providers with the same name stop the start,
 * naming both and where they were loaded from.
 */
public final class PluginRegistry {

    private final Map<String, RouteStrategyProvider> strategies;
    private final Map<String, KeyExtractorProvider> extractors;
    private final List<LoadedPlugin> plugins;

    private PluginRegistry(Map<String, RouteStrategyProvider> strategies, Map<String, KeyExtractorProvider> extractors,
                           List<LoadedPlugin> plugins) {
        this.strategies = Collections.unmodifiableMap(strategies);
        this.extractors = Collections.unmodifiableMap(extractors);
        this.plugins = List.copyOf(plugins);
    }

    /**
     * The providers visible to a class loader, all counted as built-in.
     *
     * @param loader where to look
     * @return the registry
     * @throws PluginException if two providers share a name
     */
    public static PluginRegistry load(ClassLoader loader) {
        return withPlugins(loader, List.of());
    }

    /**
     * The built-ins plus the providers of each plugin. A plugin's loader also sees its parent's
     * providers; only the classes the plugin itself defines count as its own.
     *
     * @param application the loader of router-api and the built-ins
     * @param jars        the plugins, each with a loader whose parent is {@code application}
     * @return the registry
     * @throws PluginException naming both sources when a name is provided twice, or naming the
     *                         jar whose provider cannot be instantiated
     */
    public static PluginRegistry withPlugins(ClassLoader application, List<PluginJar> jars) {
        Registrar<RouteStrategyProvider> strategies = new Registrar<>("strategy", RouteStrategyProvider::name);
        Registrar<KeyExtractorProvider> extractors = new Registrar<>("key extractor", KeyExtractorProvider::type);
        List<LoadedPlugin> loaded = new ArrayList<>();
        strategies.addAll(RouteStrategyProvider.class, application, Optional.empty());
        extractors.addAll(KeyExtractorProvider.class, application, Optional.empty());
        for (PluginJar jar : jars) {
            loaded.addAll(strategies.addAll(RouteStrategyProvider.class, jar.loader(), Optional.of(jar)));
            loaded.addAll(extractors.addAll(KeyExtractorProvider.class, jar.loader(), Optional.of(jar)));
        }
        return new PluginRegistry(strategies.byName, extractors.byName, loaded);
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

    /** What came from plugin jars, in loading order; empty when there are none. */
    public List<LoadedPlugin> plugins() {
        return plugins;
    }

    /** Collects one SPI's providers by name, remembering where each came from. */
    private static final class Registrar<T> {
        private final String kind;
        private final Function<T, String> name;
        private final Map<String, T> byName = new TreeMap<>();
        private final Map<String, String> origins = new TreeMap<>();

        Registrar(String kind, Function<T, String> name) {
            this.kind = kind;
            this.name = name;
        }

        /** Adds the providers {@code loader} itself defines (all it sees, for the built-ins). */
        List<LoadedPlugin> addAll(Class<T> spi, ClassLoader loader, Optional<PluginJar> jar) {
            List<LoadedPlugin> added = new ArrayList<>();
            try {
                for (ServiceLoader.Provider<T> candidate : ServiceLoader.load(spi, loader).stream().toList()) {
                    if (jar.isPresent() && candidate.type().getClassLoader() != loader) {
                        continue;
                    }
                    T provider = candidate.get();
                    String origin = jar.map(j -> j.path().toString()).orElse("the built-ins (" + origin(provider) + ")");
                    String key = name.apply(provider);
                    String clash = origins.putIfAbsent(key, origin);
                    if (clash != null) {
                        throw new PluginException(kind + " [" + key + "] is provided twice: by " + clash
                                + " and by " + origin);
                    }
                    byName.put(key, provider);
                    jar.ifPresent(j -> added.add(new LoadedPlugin(kind, key, j.path(), j.version())));
                }
            } catch (ServiceConfigurationError e) {
                throw new PluginException(jar.map(j -> j.path().toString()).orElse("the class path")
                        + ": a " + kind + " provider cannot be loaded: " + e.getMessage());
            }
            return added;
        }
    }

    static String origin(Object provider) {
        var source = provider.getClass().getProtectionDomain().getCodeSource();
        return provider.getClass().getName() + (source == null ? "" : " in " + source.getLocation());
    }
}
