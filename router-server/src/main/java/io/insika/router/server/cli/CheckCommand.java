package io.insika.router.server.cli;

import java.io.PrintStream;
import java.nio.file.Path;
import java.util.Map;
import java.util.Optional;

import io.insika.router.server.Router;
import io.insika.router.server.config.RouterConfig;
import io.insika.router.server.config.RouterConfigLoader;
import io.insika.router.server.config.ValueSource;
import io.insika.router.server.plugin.PluginRegistry;

/**
 * {@code insika-router check}: validates the configuration exactly as a start would, and prints
 * each effective value with where it came from, so an operator sees what the environment beat.
 */
final class CheckCommand {

    private final PrintStream out;

    CheckCommand(PrintStream out) {
        this.out = out;
    }

    int run(PluginRegistry plugins, Map<String, String> environment, Optional<Path> configFile) {
        RouterConfig config = new RouterConfigLoader(plugins).load(configFile, environment);
        out.println("configuration: " + config.origins().file().orElse("the embedded defaults"));
        int width = config.origins().sources().keySet().stream().mapToInt(String::length).max().orElse(0);
        String line = "  %-" + width + "s  %-40s (%s)%n";
        config.origins().sources().forEach((key, source) ->
                out.printf(line, key, ConfigValues.of(config, key), label(source)));
        config.routes().forEach(route -> out.println("    route " + Router.describe(route)));
        if (plugins.plugins().isEmpty()) {
            out.println("plugins: none");
        }
        plugins.plugins().forEach(plugin -> out.println("plugin " + plugin));
        out.println("the configuration is valid");
        return CommandLine.OK;
    }

    private static String label(ValueSource source) {
        return switch (source) {
            case DEFAULT -> "default";
            case YAML -> "YAML";
            case ENVIRONMENT -> "environment";
        };
    }
}
