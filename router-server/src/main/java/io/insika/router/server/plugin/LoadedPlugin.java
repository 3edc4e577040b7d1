package io.insika.router.server.plugin;

import java.nio.file.Path;

/**
 * A strategy or key extractor that came from a plugin jar, for the start-up log.
 *
 * @param kind    {@code strategy} or {@code key extractor}
 * @param name    the name YAML uses for it
 * @param jar     the jar or directory it was loaded from
 * @param version the jar's {@code Implementation-Version}, or {@code unknown}
 */
public record LoadedPlugin(String kind, String name, Path jar, String version) {

    @Override
    public String toString() {
        return kind + " [" + name + "] from " + jar + " (version " + version + ")";
    }
}
