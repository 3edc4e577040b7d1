package io.insika.router.server.routing;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

import io.helidon.json.JsonObject;
import io.helidon.json.JsonParser;
import io.helidon.json.JsonValue;
import io.insika.router.api.Backend;
import io.insika.router.api.Picker;
import io.insika.router.api.PluginOptions;
import io.insika.router.server.testing.FixturePlugins;
import io.insika.router.server.testing.PeerProgram;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import static org.hamcrest.MatcherAssert.assertThat;
import static org.hamcrest.Matchers.empty;
import static org.hamcrest.Matchers.is;

/**
 * Placement a cluster can compute: the router's ketama and rendezvous, the JavaScript and Python
 * references in clients/ and the vectors in docs/placement-vectors.json name the same owner for
 * every key, member ids given as the cluster knows them.
 */
class PlacementReferencesTest {

    private static final Path VECTORS = Path.of("../docs/placement-vectors.json");
    private static final Path CLIENTS = Path.of("../clients").toAbsolutePath().normalize();

    @BeforeAll
    static void install() throws Exception {
        if (!Files.isDirectory(CLIENTS.resolve("js/node_modules/xxhash-wasm"))) {
            run(CLIENTS.resolve("js"), "npm", "ci", "--no-audit", "--no-fund");
        }
    }

    @Test
    void theRoutersStrategiesNameTheDocumentedOwners() throws Exception {
        List<String> mismatches = new ArrayList<>();
        for (JsonValue value : JsonParser.create(Files.readString(VECTORS)).readJsonObject().arrayValue("sets")
                .orElseThrow().values()) {
            JsonObject set = value.asObject();
            List<Backend> backends = new ArrayList<>();
            for (JsonValue backend : set.arrayValue("backends").orElseThrow().values()) {
                backends.add(Backend.parse("http://h" + backends.size() + ":1")
                        .withId(backend.asObject().stringValue("id").orElseThrow())
                        .withWeight(backend.asObject().intValue("weight").orElseThrow()));
            }
            for (String strategy : List.of("ketama", "rendezvous")) {
                Picker picker = FixturePlugins.builtIn().strategy(strategy).orElseThrow().create(PluginOptions.empty())
                        .picker(backends);
                for (JsonValue owner : set.arrayValue("owners").orElseThrow().values()) {
                    String key = owner.asObject().stringValue("key").orElseThrow();
                    String expected = owner.asObject().stringValue(strategy).orElseThrow();
                    String actual = picker.pick(key).orElseThrow().id();
                    if (!actual.equals(expected)) {
                        mismatches.add(set.stringValue("name").orElseThrow() + " " + strategy + " " + key);
                    }
                }
            }
        }
        assertThat(mismatches, empty());
    }

    @Test
    void theJavaScriptReferenceNamesTheSameOwners() throws Exception {
        assertThat(run(CLIENTS.resolve("js"), "node", "placement.mjs", "--check", VECTORS.toAbsolutePath().toString()),
                is("200 owners, 0 mismatches"));
    }

    @Test
    void thePythonReferenceNamesTheSameOwners() throws Exception {
        // Debian's Python, where python3-xxhash is installed (tools/ci-deps.sh)
        Process xxhash = PeerProgram.start(new ProcessBuilder("/usr/bin/python3", "-c", "import xxhash"));
        assertThat("the Python reference's rendezvous needs xxhash: apt-get install python3-xxhash (tools/ci-deps.sh)",
                xxhash.waitFor(30, TimeUnit.SECONDS) && xxhash.exitValue() == 0, is(true));
        assertThat(run(CLIENTS.resolve("python"), "/usr/bin/python3", "placement.py", "--check",
                VECTORS.toAbsolutePath().toString()), is("200 owners, 0 mismatches"));
    }

    private static String run(Path directory, String... command) throws Exception {
        Process process = PeerProgram.start(new ProcessBuilder(command).directory(directory.toFile()).redirectErrorStream(true));
        String output = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8).strip();
        assertThat(String.join(" ", command) + " timed out", process.waitFor(120, TimeUnit.SECONDS), is(true));
        assertThat(String.join(" ", command) + ": " + output, process.exitValue(), is(0));
        return output;
    }
}
