package io.insika.router.server.config;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import static org.hamcrest.MatcherAssert.assertThat;
import static org.hamcrest.Matchers.contains;
import static org.hamcrest.Matchers.empty;
import static org.hamcrest.Matchers.is;

/** An {@code INSIKA_ROUTER_*} variable nothing reads stops the start, as an unknown YAML key does. */
class UnknownVariablesTest {

    private static final Path LAUNCHER = Path.of("../distribution/src/main/bin/insika-router");

    @TempDir
    Path dir;
    private ConfigFiles files;

    @BeforeEach
    void setUp() {
        files = new ConfigFiles(dir);
    }

    @Test
    void aMisspeltVariableStopsTheStartNamingTheNearestKnownOne() {
        assertThat(files.problems("", Map.of("INSIKA_ROUTER_BACKEND", "http://127.0.0.1:9292")),
                contains("INSIKA_ROUTER_BACKEND: unknown variable (did you mean INSIKA_ROUTER_BACKENDS?)"));
        assertThat(files.problems("", Map.of("INSIKA_ROUTER_ACCSES_LOG", "true", "insika_router_port", "7000")),
                contains("INSIKA_ROUTER_ACCSES_LOG: unknown variable (did you mean INSIKA_ROUTER_ACCESS_LOG?)",
                        "insika_router_port: unknown variable (did you mean INSIKA_ROUTER_PORT?)"));
    }

    @Test
    void aVariableNearNoKnownOneIsRefusedWithoutAGuessAndItsValueIsNeverRepeated() {
        assertThat(files.problems("", Map.of("INSIKA_ROUTER_PASSWORD_OF_THE_DAY", "hunter2")),
                contains("INSIKA_ROUTER_PASSWORD_OF_THE_DAY: unknown variable (the known ones are the variables of"
                        + " docs/configuration.md)"));
    }

    @Test
    void anUnknownVariableIsReportedWithEveryOtherProblem() {
        assertThat(files.problems("server: { port: 70000 }", Map.of("INSIKA_ROUTER_STRATEGYY", "ketama")), contains(
                "INSIKA_ROUTER_STRATEGYY: unknown variable (did you mean INSIKA_ROUTER_STRATEGY?)",
                "server.port: [70000] (expected: a port from 1 to 65535, or 0 for any free port)"));
    }

    @Test
    void aBlankUnknownVariableSetsNothingAndIsLetBe() {
        assertThat(files.load("", Map.of("INSIKA_ROUTER_BACKEND", " ")).server().port(), is(9090));
    }

    @Test
    void otherProgramsVariablesAreNoneOfTheRoutersBusiness() {
        assertThat(files.load("", Map.of("INSIKA_ROUTERS", "1", "PATH", "/bin", "ROUTER_PORT", "1")).server().port(),
                is(9090));
    }

    @Test
    void theStartScriptsVariablesAndTheTokenSecretAreKnown() {
        files.load("", Map.of("INSIKA_ROUTER_JAVA_OPTS", "-Dx=y", "INSIKA_ROUTER_HEAP_OPTS", "-Xmx64m",
                "INSIKA_ROUTER_HOME", "/opt/insika-router", "INSIKA_ROUTER_TOKEN_SECRET", "s3cret"));
    }

    @Test
    void everyInsikaVariableTheStartScriptMentionsIsKnown() throws IOException {
        Set<String> mentioned = new TreeSet<>();
        Matcher names = Pattern.compile("INSIKA_ROUTER_[A-Z0-9_]*[A-Z0-9]").matcher(Files.readString(LAUNCHER));
        while (names.find()) {
            mentioned.add(names.group());
        }
        List<String> unknown = mentioned.stream().filter(name -> !UnknownVariables.known().contains(name)).toList();

        assertThat(mentioned.contains("INSIKA_ROUTER_JAVA_OPTS"), is(true));
        assertThat(unknown, empty());
    }
}
