package io.insika.router.server.cli;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import java.util.Optional;

import io.insika.router.server.testing.FixturePlugins;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertTrue;

/** {@code check} prints each effective value with where it came from. */
class CheckCommandTest {

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
        new CheckCommand(new PrintStream(out, true, StandardCharsets.UTF_8))
                .run(FixturePlugins.registry(), environment, Optional.empty(), Optional.empty());
        return out.toString(StandardCharsets.UTF_8);
    }
}
