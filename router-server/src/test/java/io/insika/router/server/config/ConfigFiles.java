package io.insika.router.server.config;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Optional;

import io.insika.router.server.testing.FixturePlugins;

import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Writes YAML into a real file and loads it the way Main does. */
final class ConfigFiles {

    private final Path dir;
    private final RouterConfigLoader loader = new RouterConfigLoader(FixturePlugins.registry());

    ConfigFiles(Path dir) {
        this.dir = dir;
    }

    Path write(String name, String yaml) {
        try {
            return Files.writeString(dir.resolve(name), yaml);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    RouterConfig load(String yaml) {
        return load(yaml, Map.of());
    }

    RouterConfig load(String yaml, Map<String, String> environment) {
        return loader.load(Optional.of(write("insika-router.yaml", yaml)), environment);
    }

    RouterConfig loadDefault(Map<String, String> environment) {
        return loader.load(Optional.empty(), environment);
    }

    List<String> problems(String yaml) {
        return problems(yaml, Map.of());
    }

    /** The problems a configuration is rejected with; each must be exactly one line. */
    List<String> problems(String yaml, Map<String, String> environment) {
        ConfigException rejected = assertThrows(ConfigException.class, () -> load(yaml, environment));
        for (String problem : rejected.problems()) {
            assertTrue(!problem.contains("\n") && !problem.isBlank(), "one line: " + problem);
        }
        return rejected.problems();
    }
}
