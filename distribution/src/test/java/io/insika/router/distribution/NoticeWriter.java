package io.insika.router.distribution;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Properties;
import java.util.jar.JarEntry;
import java.util.jar.JarFile;
import java.util.stream.Stream;

/**
 * Writes the distribution's NOTICE at package time, so that it lists exactly the third-party jars
 * lib/ holds, whatever the dependencies are today: one line per jar, with the Maven coordinates
 * and version the jar records and the licenses the SBOM gives it, in the template's place for
 * them. A jar that records no coordinates, or that the SBOM does not name or names without a
 * license, stops the build: the NOTICE would be wrong. An offline build has no SBOM (the
 * cyclonedx plugin runs only online): its NOTICE says so where the licenses would be.
 *
 * <p>Run by the exec plugin right after the unpacked assembly:
 * {@code NoticeWriter <template> <sbom> <unpacked home> <version>}; the tarball takes the NOTICE
 * from the unpacked tree, and the image from the tarball's.
 */
public final class NoticeWriter {

    static final String OFFLINE = "unknown: built offline, without the SBOM";
    private static final String OURS = "io.insika.router";

    private NoticeWriter() {
    }

    public static void main(String[] args) throws IOException {
        Path template = Path.of(args[0]);
        Path sbomFile = Path.of(args[1]);
        Optional<Sbom> sbom = Files.isRegularFile(sbomFile) ? Optional.of(Sbom.read(sbomFile)) : Optional.empty();
        if (sbom.isEmpty()) {
            System.out.println("[WARNING] NOTICE: no " + sbomFile + " (an offline build skips the cyclonedx plugin):"
                    + " its licenses say \"" + OFFLINE + "\"");
        }
        Path home = Path.of(args[2]);
        String notice = Files.readString(template).replace("{version}", args[3])
                .replace("{lib}", String.join("\n", lines(sbom, home.resolve("lib"))));
        Files.writeString(home.resolve("NOTICE"), notice);
    }

    /** {@code lib/<jar>  <group>:<artifact>  <version>  <licenses>}, in jar name order, columns aligned. */
    static List<String> lines(Optional<Sbom> sbom, Path lib) throws IOException {
        List<String[]> rows = new ArrayList<>();
        List<String> problems = new ArrayList<>();
        try (Stream<Path> files = Files.list(lib)) {
            for (Path jar : files.filter(f -> f.toString().endsWith(".jar")).sorted().toList()) {
                String name = jar.getFileName().toString();
                Properties maven = coordinates(jar);
                if (maven.getProperty("groupId").equals(OURS)) {
                    continue;
                }
                String license = sbom.map(s -> s.ofJar(name).map(Sbom.Component::license).orElse("")).orElse(OFFLINE);
                if (license.isEmpty()) {
                    problems.add(name + ": the SBOM names no license for it");
                }
                rows.add(new String[] {"lib/" + name, maven.getProperty("groupId") + ":" + maven.getProperty("artifactId"),
                        maven.getProperty("version"), license});
            }
        }
        if (!problems.isEmpty()) {
            throw new IllegalStateException("cannot write NOTICE: " + String.join("; ", problems));
        }
        int[] widths = new int[3];
        for (String[] row : rows) {
            for (int i = 0; i < widths.length; i++) {
                widths[i] = Math.max(widths[i], row[i].length());
            }
        }
        String format = "%-" + widths[0] + "s  %-" + widths[1] + "s  %-" + widths[2] + "s  %s";
        return rows.stream().map(row -> format.formatted((Object[]) row)).toList();
    }

    /** The groupId, artifactId and version a jar records in its META-INF/maven/.../pom.properties. */
    static Properties coordinates(Path jar) {
        try (JarFile file = new JarFile(jar.toFile())) {
            JarEntry entry = file.stream().filter(e -> e.getName().startsWith("META-INF/maven/")
                    && e.getName().endsWith("/pom.properties")).findFirst()
                    .orElseThrow(() -> new IllegalStateException(jar.getFileName() + " records no Maven coordinates"));
            Properties properties = new Properties();
            try (InputStream in = file.getInputStream(entry)) {
                properties.load(in);
            }
            return properties;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
