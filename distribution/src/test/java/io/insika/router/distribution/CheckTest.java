package io.insika.router.distribution;

import java.util.Map;

import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

class CheckTest {

    private final UnpackedDistribution dist = UnpackedDistribution.unpack();

    @Test
    void checkPrintsEachValueWithWhereItCameFrom() {
        RouterProcess.Result check = RouterProcess.run(dist,
                Map.of("INSIKA_ROUTER_BACKENDS", "http://127.0.0.1:9292,http://127.0.0.1:9293"), "check");

        assertEquals(0, check.exitCode(), check.stderr());
        assertTrue(check.stdout().contains("conf/insika-router.yaml"), check.stdout());
        assertTrue(check.stdout().matches("(?s).*server\\.port +9090 +\\(YAML\\).*"), check.stdout());
        assertTrue(check.stdout().matches("(?s).*backends\\.static +http://127\\.0\\.0\\.1:9292, "
                + "http://127\\.0\\.0\\.1:9293 +\\(environment\\).*"), check.stdout());
        assertTrue(check.stdout().contains("the configuration is valid"), check.stdout());
        // one column for the values, however long the longest key
        java.util.Set<Integer> valueColumns = check.stdout().lines()
                .filter(line -> line.startsWith("  ") && !line.startsWith("    ")) // key lines, not routes
                .map(line -> line.length() - line.substring(2).split(" ", 2)[1].stripLeading().length())
                .collect(java.util.stream.Collectors.toSet());
        assertEquals(1, valueColumns.size(), check.stdout());
    }

    @Test
    void checkRejectsABrokenFileWithOneLineNamingTheKey() {
        var broken = dist.config("broken.yaml", """
                server:
                  port: 9090
                strategey:
                  name: ketama
                """);

        RouterProcess.Result check = RouterProcess.run(dist, Map.of(), "check", "--config", broken.toString());

        assertEquals(1, check.exitCode());
        assertEquals(1, check.errorLines().size(), check.stderr());
        assertTrue(check.stderr().startsWith("insika-router: strategey"), check.stderr());
        assertEquals("", check.stdout());
    }

    @Test
    void serveRefusesAnInvalidValueWithoutAStackTrace() {
        var broken = dist.config("bad-port.yaml", "server:\n  port: 99999\n");

        RouterProcess.Result serve = RouterProcess.run(dist, Map.of(), "--config", broken.toString());

        assertEquals(1, serve.exitCode());
        assertEquals(1, serve.errorLines().size(), serve.stderr());
        assertTrue(serve.stderr().contains("server.port"), serve.stderr());
    }
}
