package io.insika.router.server.cli;

import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

import io.insika.router.server.config.EnvironmentOverrides;
import io.insika.router.server.plugin.PluginDirectory;
import io.insika.router.server.plugin.PluginRegistry;

/**
 * The unpacked distribution the router runs from, passed by {@code bin/insika-router} as
 * {@value #PROPERTY}. Without it (an IDE, a test) there are no plugins and the configuration
 * falls back to the embedded defaults.
 *
 * @param dir the distribution's top directory, holding {@code conf/} and {@code plugins/}
 */
record RouterHome(Optional<Path> dir) {

    static final String PROPERTY = "insika.router.home";

    static RouterHome fromSystemProperty() {
        return new RouterHome(Optional.ofNullable(System.getProperty(PROPERTY)).map(Path::of));
    }

    /** The built-ins plus every plugin in {@code plugins/}. */
    PluginRegistry plugins() {
        ClassLoader application = RouterHome.class.getClassLoader();
        return PluginRegistry.withPlugins(application,
                dir.map(home -> PluginDirectory.open(home.resolve("plugins"), application)).orElse(List.of()));
    }

    /**
     * The environment the configuration loader sees: the process's own, with the shipped
     * {@code conf/insika-router.yaml} as {@code INSIKA_ROUTER_CONFIG} when nothing names a file.
     */
    Map<String, String> environment(Map<String, String> environment) {
        if (dir.isEmpty() || environment.containsKey(EnvironmentOverrides.CONFIG)) {
            return environment;
        }
        Map<String, String> withDefault = new HashMap<>(environment);
        withDefault.put(EnvironmentOverrides.CONFIG, dir.get().resolve("conf").resolve("insika-router.yaml").toString());
        return Map.copyOf(withDefault);
    }
}
