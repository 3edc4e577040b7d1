package io.insika.router.distribution;

import java.net.URI;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Collectors;

/**
 * The tarball Maven built, unpacked with {@code tar} into a fresh directory, the way a user would. Each test that changes it (plugins, configuration) gets its own.
 */
final class UnpackedDistribution {

    static final String VERSION = System.getProperty("insika.version");
    private static final Path TARBALL = Path.of(System.getProperty("insika.tarball"));
    /** Under target/, so {@code mvn clean} removes every copy and nothing piles up in /tmp. */
    static final Path WORK = Path.of("target", "tarball-tests").toAbsolutePath();

    private final Path home;

    private UnpackedDistribution(Path home) {
        this.home = home;
    }

    static UnpackedDistribution unpack() {
        try {
            Path dir = Files.createTempDirectory(Files.createDirectories(WORK), "unpacked-");
            Process tar = new ProcessBuilder("tar", "xzf", TARBALL.toString(), "-C", dir.toString())
                    .redirectErrorStream(true).start();
            String output = new String(tar.getInputStream().readAllBytes());
            if (tar.waitFor() != 0) {
                throw new IllegalStateException("tar failed on " + TARBALL + ": " + output);
            }
            return new UnpackedDistribution(dir.resolve("insika-router-" + VERSION));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }

    Path home() {
        return home;
    }

    Path script() {
        return home.resolve("bin/insika-router");
    }

    Path plugins() {
        return home.resolve("plugins");
    }

    Path routerApiJar() {
        try (var jars = Files.list(home.resolve("lib"))) {
            return jars.filter(jar -> jar.getFileName().toString().startsWith("router-api-")).findFirst().orElseThrow();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** Writes a YAML file next to the distribution and returns its path. */
    Path config(String name, String yaml) {
        try {
            return Files.writeString(home.getParent().resolve(name), yaml);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** A YAML serving on free loopback ports in front of the given backends. */
    Path configFor(List<WhoAmIBackend> backends, String extra) {
        return configForUris(backends.stream().map(WhoAmIBackend::uri).toList(), extra);
    }

    /** A YAML listening on free loopback ports, with these static backends and any extra YAML. */
    Path configForUris(List<URI> backends, String extra) {
        return config("router-" + System.nanoTime() + ".yaml", """
                server:
                  host: 127.0.0.1
                  port: 0
                  admin-port: 0
                backends:
                  static:
                %s
                %s
                """.formatted(backends.stream().map(uri -> "    - " + uri)
                .collect(Collectors.joining("\n")), extra));
    }
}
