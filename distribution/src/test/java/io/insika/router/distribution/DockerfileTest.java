package io.insika.router.distribution;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.yaml.snakeyaml.Yaml;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The shipped Dockerfile (no Docker here to build it) says what the image the build made says:
 * the same files from the same rootfs.sh and modules list, and its final stage the same user,
 * working directory, environment, ports, stop signal, labels and entrypoint as the image's
 * configuration.
 */
class DockerfileTest {

    private static final Path DOCKERFILE = Path.of("src/image/Dockerfile");
    private static final List<String[]> INSTRUCTIONS = new ArrayList<>();
    private static Map<String, Object> config;

    @BeforeAll
    static void read() throws IOException {
        StringBuilder line = new StringBuilder();
        for (String raw : Files.readAllLines(DOCKERFILE)) {
            if (raw.isBlank() || raw.startsWith("#")) {
                continue;
            }
            line.append(raw.strip());
            if (raw.endsWith("\\")) {
                line.setLength(line.length() - 1);
                line.append(' ');
                continue;
            }
            INSTRUCTIONS.add(line.toString().split("\\s+", 2));
            line.setLength(0);
        }
        Path dir = Files.createTempDirectory(Files.createDirectories(UnpackedDistribution.WORK), "dockerfile-");
        config = OciImage.unpack(dir).runConfig();
        OciImage.delete(dir);
    }

    @Test
    void itBuildsForThisVersionFromTheSameRootfsScriptAndModulesList() {
        assertEquals("VERSION=" + UnpackedDistribution.VERSION, INSTRUCTIONS.getFirst()[1]);
        assertTrue(all("COPY").stream().anyMatch(copy -> copy.contains("rootfs.sh") && copy.contains("modules")));
        assertTrue(all("RUN").stream().anyMatch(run -> run.startsWith("/image/rootfs.sh ")));
        assertEquals("scratch", all("FROM").getLast());
    }

    @Test
    void itsFinalStageIsConfiguredLikeTheBuiltImage() {
        assertEquals(config.get("User"), finalStage("USER"));
        assertEquals(config.get("WorkingDir"), finalStage("WORKDIR"));
        assertEquals(config.get("StopSignal"), finalStage("STOPSIGNAL"));
        assertEquals(OciImage.map(config.get("ExposedPorts")).keySet(), Set.of(finalStage("EXPOSE").split(" ")));
        assertEquals(new Yaml().load(finalStage("ENTRYPOINT")), config.get("Entrypoint"));
        assertEquals(String.join(" ", OciImage.list(config.get("Env")).stream().map(String.class::cast).toList()),
                finalStage("ENV"));
        assertEquals(config.get("Labels"), pairs(finalStage("LABEL").replace("${VERSION}", UnpackedDistribution.VERSION)));
    }

    private static Map<String, String> pairs(String line) {
        Map<String, String> pairs = new LinkedHashMap<>();
        for (String pair : line.split("\\s+")) {
            String[] keyValue = pair.split("=", 2);
            pairs.put(keyValue[0], keyValue[1]);
        }
        return pairs;
    }

    /** The one instruction of this kind after the last FROM. */
    private static String finalStage(String instruction) {
        int from = 0;
        for (int i = 0; i < INSTRUCTIONS.size(); i++) {
            if (INSTRUCTIONS.get(i)[0].equals("FROM")) {
                from = i;
            }
        }
        List<String> found = INSTRUCTIONS.subList(from, INSTRUCTIONS.size()).stream()
                .filter(parts -> parts[0].equals(instruction)).map(parts -> parts[1]).toList();
        assertEquals(1, found.size(), instruction + " in the final stage: " + found);
        return found.getFirst();
    }

    private static List<String> all(String instruction) {
        return INSTRUCTIONS.stream().filter(parts -> parts[0].equals(instruction)).map(parts -> parts[1]).toList();
    }
}
