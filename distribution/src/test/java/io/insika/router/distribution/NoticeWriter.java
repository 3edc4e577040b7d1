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
 * and version the jar records (the SBOM's, for a jar that records none) and the licenses the
 * SBOM gives it, in the template's place for them. A jar known to neither, or that the SBOM
 * names without a license, stops the build: the NOTICE would be wrong. An offline build has no SBOM (the
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
                Optional<Sbom.Component> component = sbom.flatMap(s -> s.ofJar(name));
                Optional<Coordinates> coordinates = Coordinates.recorded(jar).or(() -> component.map(Coordinates::of));
                if (coordinates.isEmpty()) {
                    problems.add(name + ": records no Maven coordinates, and no SBOM names it");
                    continue;
                }
                if (coordinates.get().group().equals(OURS)) {
                    continue;
                }
                String license = sbom.isEmpty() ? OFFLINE : component.map(Sbom.Component::license).orElse("");
                if (license.isEmpty()) {
                    problems.add(name + ": the SBOM names no license for it");
                }
                rows.add(new String[] {"lib/" + name, coordinates.get().group() + ":" + coordinates.get().artifact(),
                        coordinates.get().version(), license});
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

    /** A jar's Maven coordinates. */
    record Coordinates(String group, String artifact, String version) {

        static Coordinates of(Sbom.Component component) {
            return new Coordinates(component.group(), component.name(), component.version());
        }

        /**
         * What the jar records in META-INF/maven/.../pom.properties, as Maven builds write it;
         * a jar built otherwise (hash4j, by Gradle) records none.
         */
        static Optional<Coordinates> recorded(Path jar) {
            try (JarFile file = new JarFile(jar.toFile())) {
                Optional<JarEntry> entry = file.stream().filter(e -> e.getName().startsWith("META-INF/maven/")
                        && e.getName().endsWith("/pom.properties")).findFirst();
                if (entry.isEmpty()) {
                    return Optional.empty();
                }
                Properties properties = new Properties();
                try (InputStream in = file.getInputStream(entry.get())) {
                    properties.load(in);
                }
                return Optional.of(new Coordinates(properties.getProperty("groupId"),
                        properties.getProperty("artifactId"), properties.getProperty("version")));
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        }
    }
}
