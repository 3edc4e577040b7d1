package io.insika.router.server.plugin;

import java.io.IOException;
import java.net.MalformedURLException;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.jar.Attributes;
import java.util.jar.JarFile;
import java.util.stream.Stream;

/**
 * Opens the {@code plugins/} directory: every jar in it, and every sub-directory (whose jars
 * together make one plugin), gets its own class loader whose parent is the application's. The
 * parent holds router-api, so a plugin's providers implement the very interfaces the router
 * calls; that is also why a plugin that bundles its own router-api is refused: its classes
 * would shadow nothing (parent first) yet tell the author a lie about which API they run on.
 */
public final class PluginDirectory {

    /** The package every router-api class lives in, as a jar entry prefix. */
    static final String API_PACKAGE = "io/insika/router/api/";

    private PluginDirectory() {
    }

    /**
     * The plugins in a directory, sorted by name so loading order never depends on the file system.
     *
     * @param dir    the plugins directory; a missing directory means no plugins
     * @param parent the loader holding router-api and the built-ins
     * @return one entry per jar or sub-directory
     * @throws PluginException naming the jar that cannot be read or bundles router-api
     */
    public static List<PluginJar> open(Path dir, ClassLoader parent) {
        if (!Files.isDirectory(dir)) {
            return List.of();
        }
        List<PluginJar> plugins = new ArrayList<>();
        for (Path entry : list(dir)) {
            if (Files.isDirectory(entry)) {
                List<Path> jars = list(entry).stream().filter(PluginDirectory::isJar).toList();
                plugins.add(plugin(entry, jars, parent));
            } else if (isJar(entry)) {
                plugins.add(plugin(entry, List.of(entry), parent));
            }
        }
        return List.copyOf(plugins);
    }

    private static PluginJar plugin(Path path, List<Path> jars, ClassLoader parent) {
        String version = "unknown";
        List<URL> urls = new ArrayList<>();
        for (Path jar : jars) {
            Optional<String> jarVersion = inspect(jar);
            if (version.equals("unknown") && jarVersion.isPresent()) {
                version = jarVersion.get();
            }
            urls.add(url(jar));
        }
        ClassLoader loader = new URLClassLoader("plugin " + path.getFileName(), urls.toArray(URL[]::new), parent);
        return new PluginJar(path, loader, version);
    }

    /** Reads the jar through once: refuses a bundled router-api, returns its version. */
    private static Optional<String> inspect(Path jar) {
        try (JarFile file = new JarFile(jar.toFile())) {
            Optional<String> api = file.stream()
                    .map(entry -> entry.getName())
                    .filter(name -> name.startsWith(API_PACKAGE) && name.endsWith(".class"))
                    .findFirst();
            if (api.isPresent()) {
                throw new PluginException(jar + " bundles its own copy of router-api (" + api.get()
                        + "): depend on router-api with scope provided and rebuild the jar");
            }
            var manifest = file.getManifest();
            return Optional.ofNullable(manifest == null ? null
                    : manifest.getMainAttributes().getValue(Attributes.Name.IMPLEMENTATION_VERSION));
        } catch (IOException e) {
            throw new PluginException(jar + " cannot be read as a jar: " + e.getMessage());
        }
    }

    private static boolean isJar(Path path) {
        return Files.isRegularFile(path) && path.getFileName().toString().endsWith(".jar");
    }

    private static List<Path> list(Path dir) {
        try (Stream<Path> entries = Files.list(dir)) {
            return entries.sorted().toList();
        } catch (IOException e) {
            throw new PluginException(dir + " cannot be read: " + e.getMessage());
        }
    }

    private static URL url(Path jar) {
        try {
            return jar.toUri().toURL();
        } catch (MalformedURLException e) {
            throw new PluginException(jar + " cannot be read: " + e.getMessage());
        }
    }
}
