package io.insika.router.server.cli;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Optional;

import io.insika.router.server.config.ConfigException;
import io.insika.router.server.testing.FixturePlugins;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import static org.hamcrest.MatcherAssert.assertThat;
import static org.hamcrest.Matchers.containsInAnyOrder;
import static org.hamcrest.Matchers.startsWith;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** {@code check} prints each effective value with where it came from. */
class CheckCommandTest {

    @TempDir
    Path dir;

    @Test
    void checkReportsEveryProblemInOneRunTheStrategyAndExtractorNamesIncluded() throws Exception {
        Path file = Files.writeString(dir.resolve("insika-router.yaml"), """
                server: { port: 70000 }
                strategy: { name: ketamma }
                routes:
                  - { path: /a, keys: [ { type: jsn-field, field: user } ] }
                  - { path: "", keys: [ { type: heder, name: X-Session } ] }
                """);

        List<String> problems = assertThrows(ConfigException.class, () -> new CheckCommand(new PrintStream(
                new ByteArrayOutputStream(), true, StandardCharsets.UTF_8), false).run(FixturePlugins.registry(),
                Map.of("INSIKA_ROUTER_STRATEGYY", "ketama"), Optional.of(file), Optional.empty())).problems();

        assertThat(problems.stream().map(problem -> problem.substring(0, problem.indexOf(':'))).toList(),
                containsInAnyOrder("INSIKA_ROUTER_STRATEGYY", "server.port", "strategy.name", "routes[0].keys[0].type",
                        "routes[1].path", "routes[1].keys[0].type"));
        assertThat(problems.stream().filter(p -> p.startsWith("strategy.name")).findFirst().orElseThrow(),
                startsWith("strategy.name: [ketamma] (known: "));
        assertThat(problems.stream().filter(p -> p.startsWith("routes[1].keys")).findFirst().orElseThrow(),
                startsWith("routes[1].keys[0].type: [heder] (known: "));
    }

    @Test
    void checkPrintsWhereTheAdminPortListensAndWhatSaidSo() {
        String variables = check(Map.of("INSIKA_ROUTER_ADMIN_HOST", "127.0.0.1", "INSIKA_ROUTER_ADMIN_PORT", "9191"));
        String defaults = check(Map.of("INSIKA_ROUTER_HOST", "127.0.0.5"));

        assertTrue(variables.matches("(?s).*\\n  server\\.admin-host +127\\.0\\.0\\.1 +\\(environment\\)\\n.*"),
                variables);
        assertTrue(variables.matches("(?s).*\\n  server\\.admin-port +9191 +\\(environment\\)\\n.*"), variables);
        assertTrue(defaults.matches("(?s).*\\n  server\\.admin-host +127\\.0\\.0\\.5 +\\(default\\)\\n.*"),
                "the proxy's host, by default: " + defaults);
    }

    private static String check(Map<String, String> environment) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        new CheckCommand(new PrintStream(out, true, StandardCharsets.UTF_8), false)
                .run(FixturePlugins.registry(), environment, Optional.empty(), Optional.empty());
        return out.toString(StandardCharsets.UTF_8);
    }
}
