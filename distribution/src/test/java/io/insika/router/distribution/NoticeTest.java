package io.insika.router.distribution;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Stream;

import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * What the tarball says it ships is what its lib/ holds: NOTICE names every third-party jar with
 * the coordinates and version the jar itself records (its META-INF/maven pom.properties; the
 * SBOM's for a jar that records none) and the license its pom declares; the SBOM beside it names
 * every jar, and nothing else; LICENSE is the repository's, and the router's own jars declare it.
 */
class NoticeTest {

    private static final Path SBOM_BESIDE = Path.of(System.getProperty("insika.sbom"));
    private static UnpackedDistribution dist;
    /**
     * Every jar of lib/, by file name: its coordinates as it records them, or for a jar that
     * records none (built by Gradle) as the SBOM gives them for its file name.
     */
    private static Map<String, NoticeWriter.Coordinates> jars;

    @BeforeAll
    static void unpack() throws IOException {
        assertTrue(Files.isRegularFile(SBOM_BESIDE), "no " + SBOM_BESIDE + ": the cyclonedx plugin writes it only"
                + " in an online build (without -o)");
        dist = UnpackedDistribution.unpack();
        jars = new TreeMap<>();
        try (Stream<Path> files = Files.list(dist.home().resolve("lib"))) {
            for (Path jar : files.filter(f -> f.toString().endsWith(".jar")).toList()) {
                String name = jar.getFileName().toString();
                jars.put(name, NoticeWriter.Coordinates.recorded(jar).or(() -> Sbom.read(SBOM_BESIDE).ofJar(name)
                        .map(NoticeWriter.Coordinates::of)).orElseThrow(() -> new AssertionError(name
                        + " records no Maven coordinates, and the SBOM does not name it")));
            }
        }
        assertTrue(jars.size() > 20, "lib/ holds " + jars.keySet());
    }

    @Test
    void theNoticeNamesEveryThirdPartyJarInLibWithItsOwnCoordinatesVersionAndLicenseAndNothingElse() throws IOException {
        Map<String, String[]> listed = noticeLines();
        Sbom sbom = Sbom.read(dist.home().resolve("sbom.cdx.json"));
        List<String> wrong = new ArrayList<>();
        jars.forEach((jar, maven) -> {
            String[] line = listed.remove("lib/" + jar);
            boolean ours = maven.group().equals("io.insika.router");
            if (ours) {
                if (line != null) {
                    wrong.add(jar + ": the router's own, under LICENSE, yet listed");
                }
                return;
            }
            String coordinates = maven.group() + ":" + maven.artifact();
            String license = sbom.ofJar(jar).map(Sbom.Component::license).orElse("(not in the SBOM)");
            if (line == null) {
                wrong.add(jar + ": not listed");
            } else if (!line[0].equals(coordinates) || !line[1].equals(maven.version())
                    || !line[2].equals(license) || license.isBlank()) {
                wrong.add(jar + ": listed as " + String.join(" ", line) + ", is " + coordinates + " "
                        + maven.version() + " " + license);
            }
        });
        listed.keySet().forEach(stale -> wrong.add(stale + ": listed, not in lib/"));

        assertEquals(List.of(), wrong);
    }

    @Test
    void theSbomShippedIsTheOneBesideTheTarballAndNamesEveryJarInLibAndNothingElse() throws IOException {
        assertArrayEquals(Files.readAllBytes(SBOM_BESIDE), Files.readAllBytes(dist.home().resolve("sbom.cdx.json")));
        Sbom sbom = Sbom.read(SBOM_BESIDE);
        List<String> wrong = new ArrayList<>();
        jars.forEach((jar, maven) -> sbom.ofJar(jar).ifPresentOrElse(component -> {
            if (!NoticeWriter.Coordinates.of(component).equals(maven)) {
                wrong.add(jar + ": the SBOM says " + component.group() + ":" + component.name());
            }
        }, () -> wrong.add(jar + ": not in the SBOM")));
        sbom.components().stream().filter(c -> !jars.containsKey(c.jar()))
                .forEach(c -> wrong.add(c.group() + ":" + c.name() + " " + c.version() + ": in the SBOM, not in lib/"));

        assertEquals(List.of(), wrong);
    }

    @Test
    void theLicenseShippedIsTheRepositorysAndTheRoutersOwnJarsDeclareIt() throws IOException {
        byte[] license = Files.readAllBytes(dist.home().resolve("LICENSE"));
        assertArrayEquals(Files.readAllBytes(Path.of("../LICENSE")), license);
        assertTrue(new String(license).startsWith("MIT License\n"), "LICENSE is not MIT's");
        List<Sbom.Component> ours = Sbom.read(SBOM_BESIDE).components().stream().filter(Sbom.Component::ours).toList();
        assertFalse(ours.isEmpty());
        ours.forEach(c -> assertEquals("MIT", c.license(), c.name()));
    }

    /** The lines of NOTICE that name a jar, by its path: coordinates, version, license. */
    private static Map<String, String[]> noticeLines() throws IOException {
        Map<String, String[]> lines = new TreeMap<>();
        for (String line : Files.readAllLines(dist.home().resolve("NOTICE"))) {
            if (line.startsWith("lib/")) {
                String[] columns = line.split(" {2,}", 4);
                assertEquals(4, columns.length, line);
                lines.put(columns[0], new String[] {columns[1], columns[2], columns[3]});
            }
        }
        return lines;
    }
}
