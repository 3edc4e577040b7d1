package io.insika.router.distribution;

import java.nio.file.Path;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** {@code bin/insika-router} takes its arguments as other servers' commands do. */
class CommandLineTest {

    private static final Map<String, String> TWO_BACKENDS = Map.of("INSIKA_ROUTER_BACKENDS",
            "http://127.0.0.1:9292,http://127.0.0.1:9293");

    private final UnpackedDistribution dist = UnpackedDistribution.unpack();

    @Test
    void eachCommandsHelpPrintsItsUsageAndExitsZero() {
        for (String command : List.of("serve", "demo", "check", "route", "token", "version", "help")) {
            RouterProcess.Result help = RouterProcess.run(dist, Map.of(), command, "--help");

            assertEquals(0, help.exitCode(), command + ": " + help.stderr());
            assertEquals("", help.stderr(), command);
            assertTrue(help.stdout().matches("usage: insika-router \\[?" + command + "(?s).*"), help.stdout());
        }
        RouterProcess.Result helpRoute = RouterProcess.run(dist, Map.of(), "help", "route");
        assertEquals(RouterProcess.run(dist, Map.of(), "route", "--help").stdout(), helpRoute.stdout());
    }

    @Test
    void versionAndCapitalVPrintTheVersion() {
        for (String asked : List.of("version", "-V", "--version")) {
            RouterProcess.Result version = RouterProcess.run(dist, Map.of(), asked);

            assertEquals(0, version.exitCode(), version.stderr());
            assertEquals("insika-router " + UnpackedDistribution.VERSION, version.stdout().strip(), asked);
        }
    }

    @Test
    void anOptionsValueMayBeJoinedToIt() {
        Path config = dist.config("joined.yaml", "server: { port: 9555 }\n");

        RouterProcess.Result check = RouterProcess.run(dist, Map.of(), "check", "--config=" + config);

        assertEquals(0, check.exitCode(), check.stderr());
        assertTrue(check.stdout().contains("configuration: " + config), check.stdout());
        assertTrue(check.stdout().matches("(?s).*server\\.port +9555 +\\(YAML\\).*"), check.stdout());
    }

    @Test
    void routeAnswersOnStandardOutputAndLogsNothingUnlessAsked() {
        RouterProcess.Result quiet = RouterProcess.run(dist, TWO_BACKENDS, "route", "alice");
        RouterProcess.Result verbose = RouterProcess.run(dist, TWO_BACKENDS, "route", "--verbose", "alice");

        assertEquals(0, quiet.exitCode(), quiet.stderr());
        assertTrue(quiet.stdout().matches("alice -> http://127\\.0\\.0\\.1:929[23] \\(ring [0-9a-f]{16}\\)\\n"),
                quiet.stdout());
        assertEquals("", quiet.stderr());
        assertEquals(quiet.stdout(), verbose.stdout());
        assertTrue(verbose.stderr().contains(" INFO  io.insika.router"), verbose.stderr());
    }

    @Test
    void aKeyBeginningWithADashIsRoutedAfterTheDoubleDash() {
        RouterProcess.Result dashed = RouterProcess.run(dist, TWO_BACKENDS, "route", "--", "-abc");
        RouterProcess.Result refused = RouterProcess.run(dist, TWO_BACKENDS, "route", "-abc");

        assertEquals(0, dashed.exitCode(), dashed.stderr());
        assertTrue(dashed.stdout().startsWith("-abc -> http://127.0.0.1:929"), dashed.stdout());
        assertEquals(2, refused.exitCode(), refused.stderr());
        assertTrue(refused.stderr().contains("insika-router route -- -abc"), refused.stderr());
    }

    @Test
    void aMisspeltVariableStopsTheStartNamingTheOneMeant() {
        RouterProcess.Result check = RouterProcess.run(dist, Map.of("INSIKA_ROUTER_BACKEND", "http://127.0.0.1:9292"),
                "check");

        assertEquals(1, check.exitCode(), check.stderr());
        assertEquals(List.of("insika-router: INSIKA_ROUTER_BACKEND: unknown variable (did you mean"
                + " INSIKA_ROUTER_BACKENDS?)"), check.errorLines());
    }
}
