package io.insika.router.server.testing;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.function.Function;

import io.insika.router.api.Backend;
import io.insika.router.api.KeyExtractor;
import io.insika.router.api.KeyExtractorProvider;
import io.insika.router.api.Picker;
import io.insika.router.api.PluginOptions;
import io.insika.router.api.RouteStrategy;
import io.insika.router.api.RouteStrategyProvider;
import io.insika.router.server.plugin.PluginRegistry;
import io.insika.router.server.routing.BackendPool;

/**
 * A plugin registry for tests: the real built-ins on the class path, plus stand-ins for the
 * built-in names that are not there (yet), plus test-only plugins: two with strict options, and
 * three that throw where the contract says they never do. The stand-ins are registered only when
 * missing, so the tests keep working once the real strategies and extractors are on the class
 * path.
 */
public final class FixturePlugins {

    /** A test-only strategy; option {@code level} must be {@code low} or {@code high}. */
    public static final String PICKY_STRATEGY = "fixture-picky";
    /** A test-only extractor; option {@code name} is required. */
    public static final String PICKY_EXTRACTOR = "fixture-header";
    /** A test-only strategy breaking its contract: its pickers throw on every key. */
    public static final String THROWING_STRATEGY = "fixture-throwing";
    /** A test-only strategy breaking its contract: it throws building a picker for more than two backends. */
    public static final String TWO_AT_MOST_STRATEGY = "fixture-two-at-most";
    /** A test-only extractor breaking its contract: it throws on every request. */
    public static final String THROWING_EXTRACTOR = "fixture-throwing-key";

    private static final List<Class<? extends RouteStrategyProvider>> STRATEGIES = List.of(
            Ketama.class, Rendezvous.class, RoundRobin.class, Picky.class, Throwing.class, TwoAtMost.class);
    private static final List<Class<? extends KeyExtractorProvider>> EXTRACTORS = List.of(
            JsonField.class, PickyHeader.class, ThrowingKey.class);

    private FixturePlugins() {
    }

    /** The providers on the class path alone, found as the router finds its built-ins. */
    public static PluginRegistry builtIn() {
        return PluginRegistry.load(PluginRegistry.class.getClassLoader());
    }

    /** The registry: built-ins plus whichever stand-ins they lack. Built once per test JVM. */
    public static PluginRegistry registry() {
        return Holder.REGISTRY;
    }

    private static final class Holder {
        static final PluginRegistry REGISTRY = load();
    }

    private static PluginRegistry load() {
        PluginRegistry builtIn = builtIn();
        try {
            Path dir = Files.createTempDirectory("insika-fixture-plugins");
            // the loader keeps reading the directory while tests run: delete it as the JVM ends
            Runtime.getRuntime().addShutdownHook(new Thread(() -> TempTrees.delete(dir)));
            Path services = Files.createDirectories(dir.resolve("META-INF/services"));
            Files.write(services.resolve(RouteStrategyProvider.class.getName()),
                    missing(STRATEGIES, RouteStrategyProvider::name, builtIn.strategyNames()));
            Files.write(services.resolve(KeyExtractorProvider.class.getName()),
                    missing(EXTRACTORS, KeyExtractorProvider::type, builtIn.extractorTypes()));
            URLClassLoader loader = new URLClassLoader(new URL[] {dir.toUri().toURL()},
                    FixturePlugins.class.getClassLoader());
            return PluginRegistry.load(loader);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** A pool over these strategies, its fingerprint naming the keyed one by its class. */
    public static BackendPool pool(RouteStrategy strategy, RouteStrategy rotation) {
        return new BackendPool(strategy, strategy.getClass().getName(), PluginOptions.empty(), rotation);
    }

    /** A strategy that gives every key to the first backend by id: enough to fill a pool. */
    public static RouteStrategy firstBackend() {
        return backends -> new Picker() {
            @Override
            public Optional<Backend> pick(String key) {
                return backends.stream().min(java.util.Comparator.comparing(Backend::id));
            }

            @Override
            public List<Backend> backends() {
                return backends;
            }
        };
    }

    private static <T> List<String> missing(List<Class<? extends T>> classes, Function<T, String> name,
                                            Set<String> present) {
        return classes.stream()
                .filter(type -> !present.contains(name.apply(instantiate(type))))
                .map(Class::getName)
                .toList();
    }

    private static <T> T instantiate(Class<? extends T> type) {
        try {
            return type.getConstructor().newInstance();
        } catch (ReflectiveOperationException e) {
            throw new IllegalStateException(e);
        }
    }

    abstract static class NamedStrategy implements RouteStrategyProvider {
        private final String name;

        NamedStrategy(String name) {
            this.name = name;
        }

        @Override
        public String name() {
            return name;
        }

        @Override
        public RouteStrategy create(PluginOptions options) {
            options.requireOnly(Set.of());
            return firstBackend();
        }
    }

    /** Stands in for ketama: its one option, {@code compat}, as the real one spells it. */
    public static final class Ketama extends NamedStrategy {
        public Ketama() {
            super("ketama");
        }

        @Override
        public RouteStrategy create(PluginOptions options) {
            compat(options);
            return firstBackend();
        }

        @Override
        public PluginOptions resolve(PluginOptions options) {
            return PluginOptions.of(options.path(), Map.of("compat", compat(options)));
        }

        private static String compat(PluginOptions options) {
            options.requireOnly(Set.of("compat"));
            return options.oneOf("compat", "none", Set.of("none", "libketama"));
        }
    }

    public static final class Rendezvous extends NamedStrategy {
        public Rendezvous() {
            super("rendezvous");
        }
    }

    public static final class RoundRobin extends NamedStrategy {
        public RoundRobin() {
            super("round-robin");
        }
    }

    public static final class Picky extends NamedStrategy {
        public Picky() {
            super(PICKY_STRATEGY);
        }

        @Override
        public RouteStrategy create(PluginOptions options) {
            options.requireOnly(Set.of("level"));
            options.oneOf("level", "low", Set.of("low", "high"));
            return firstBackend();
        }
    }

    public static final class Throwing extends NamedStrategy {
        public Throwing() {
            super(THROWING_STRATEGY);
        }

        @Override
        public RouteStrategy create(PluginOptions options) {
            options.requireOnly(Set.of());
            return backends -> new Picker() {
                @Override
                public Optional<Backend> pick(String key) {
                    throw new IllegalStateException("fixture: this picker always throws");
                }

                @Override
                public List<Backend> backends() {
                    return backends;
                }
            };
        }
    }

    public static final class TwoAtMost extends NamedStrategy {
        public TwoAtMost() {
            super(TWO_AT_MOST_STRATEGY);
        }

        @Override
        public RouteStrategy create(PluginOptions options) {
            options.requireOnly(Set.of());
            RouteStrategy first = firstBackend();
            return backends -> {
                if (backends.size() > 2) {
                    throw new IllegalStateException("fixture: no picker for " + backends.size() + " backends");
                }
                return first.picker(backends);
            };
        }
    }

    public static final class ThrowingKey implements KeyExtractorProvider {
        @Override
        public String type() {
            return THROWING_EXTRACTOR;
        }

        @Override
        public KeyExtractor create(PluginOptions options) {
            options.requireOnly(Set.of());
            return request -> {
                throw new IllegalStateException("fixture: this extractor always throws");
            };
        }
    }

    /** Stands in for json-field: requires {@code field} and nothing else. */
    public static final class JsonField implements KeyExtractorProvider {
        @Override
        public String type() {
            return "json-field";
        }

        @Override
        public KeyExtractor create(PluginOptions options) {
            options.requireOnly(Set.of("field"));
            options.required("field", "a JSON field name");
            return request -> Optional.empty();
        }
    }

    public static final class PickyHeader implements KeyExtractorProvider {
        @Override
        public String type() {
            return PICKY_EXTRACTOR;
        }

        @Override
        public KeyExtractor create(PluginOptions options) {
            options.requireOnly(Set.of("name"));
            options.required("name", "a header name");
            return request -> Optional.empty();
        }
    }
}
