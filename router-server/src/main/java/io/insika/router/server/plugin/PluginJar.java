package io.insika.router.server.plugin;

import java.nio.file.Path;
import java.util.Objects;

/**
 * One plugin from the {@code plugins/} directory: a jar, or a directory of jars, with the class
 * loader that reads it.
 *
 * @param path    the jar or directory, as a user would name it in a message
 * @param loader  the plugin's own loader; its parent is the application's, which holds router-api
 * @param version the {@code Implementation-Version} of its manifest, or {@code unknown}
 */
public record PluginJar(Path path, ClassLoader loader, String version) {

    public PluginJar {
        Objects.requireNonNull(path, "path");
        Objects.requireNonNull(loader, "loader");
        Objects.requireNonNull(version, "version");
    }
}
