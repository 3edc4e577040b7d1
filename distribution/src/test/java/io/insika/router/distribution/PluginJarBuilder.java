package io.insika.router.distribution;

import java.io.IOException;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.jar.Attributes;
import java.util.jar.JarEntry;
import java.util.jar.JarOutputStream;
import java.util.jar.Manifest;
import java.util.stream.Stream;

import javax.tools.JavaCompiler;
import javax.tools.ToolProvider;

/**
 * Builds a plugin jar as its author would: Java sources compiled against router-api alone, the
 * services files, a manifest with a version.
 */
final class PluginJarBuilder {

    private final Path routerApi;
    private final Map<String, String> sources = new LinkedHashMap<>();
    private final Map<String, String> services = new LinkedHashMap<>();
    private final Map<String, byte[]> extraEntries = new LinkedHashMap<>();
    private String version = "1.0.0";

    PluginJarBuilder(Path routerApi) {
        this.routerApi = routerApi;
    }

    /** Adds a class in package {@code example}: {@code simpleName} and its source. */
    PluginJarBuilder source(String simpleName, String source) {
        sources.put(simpleName, source);
        return this;
    }

    PluginJarBuilder service(String spi, String implementation) {
        services.merge(spi, implementation, (a, b) -> a + "\n" + b);
        return this;
    }

    PluginJarBuilder entry(String name, byte[] bytes) {
        extraEntries.put(name, bytes);
        return this;
    }

    PluginJarBuilder version(String implementationVersion) {
        this.version = implementationVersion;
        return this;
    }

    Path writeTo(Path jar) {
        try {
            Path work = Files.createTempDirectory(Files.createDirectories(UnpackedDistribution.WORK), "plugin-src-");
            Path src = Files.createDirectories(work.resolve("src/example"));
            Path classes = Files.createDirectories(work.resolve("classes"));
            for (var source : sources.entrySet()) {
                Files.writeString(src.resolve(source.getKey() + ".java"), source.getValue());
            }
            compile(src, classes);
            Manifest manifest = new Manifest();
            manifest.getMainAttributes().put(Attributes.Name.MANIFEST_VERSION, "1.0");
            manifest.getMainAttributes().put(Attributes.Name.IMPLEMENTATION_VERSION, version);
            try (JarOutputStream out = new JarOutputStream(Files.newOutputStream(jar), manifest);
                 Stream<Path> files = Files.walk(classes)) {
                for (Path file : files.filter(Files::isRegularFile).toList()) {
                    put(out, classes.relativize(file).toString().replace('\\', '/'), Files.readAllBytes(file));
                }
                for (var service : services.entrySet()) {
                    put(out, "META-INF/services/" + service.getKey(), (service.getValue() + "\n").getBytes());
                }
                for (var extra : extraEntries.entrySet()) {
                    put(out, extra.getKey(), extra.getValue());
                }
            }
            return jar;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private void compile(Path src, Path classes) throws IOException {
        JavaCompiler javac = ToolProvider.getSystemJavaCompiler();
        List<String> args = new java.util.ArrayList<>(List.of("--release", "21", "-proc:none",
                "-classpath", routerApi.toString(), "-d", classes.toString()));
        try (Stream<Path> files = Files.list(src)) {
            files.forEach(file -> args.add(file.toString()));
        }
        var errors = new java.io.ByteArrayOutputStream();
        int status = javac.run(null, OutputStream.nullOutputStream(), errors, args.toArray(String[]::new));
        if (status != 0) {
            throw new AssertionError("the plugin did not compile:\n" + errors);
        }
    }

    private static void put(JarOutputStream out, String name, byte[] bytes) throws IOException {
        out.putNextEntry(new JarEntry(name));
        out.write(bytes);
        out.closeEntry();
    }
}
