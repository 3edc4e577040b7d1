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
    void againstARunningRouterCheckSaysWhetherAndHowManyKeysWouldMove() {
        try (WhoAmIBackend a = new WhoAmIBackend("a"); WhoAmIBackend b = new WhoAmIBackend("b");
             WhoAmIBackend c = new WhoAmIBackend("c");
             RouterProcess router = RouterProcess.start(dist, Map.of(),
                     "--config", dist.configFor(java.util.List.of(a, b), "").toString()).awaitListening()) {
            String admin = "http://127.0.0.1:" + router.adminPort();

            RouterProcess.Result same = RouterProcess.run(dist, Map.of(), "check",
                    "--config", dist.configFor(java.util.List.of(b, a), "").toString(), "--against", admin);
            RouterProcess.Result grown = RouterProcess.run(dist, Map.of(), "check",
                    "--config", dist.configFor(java.util.List.of(a, b, c), "").toString(), "--against", admin);

            RouterProcess.Result slower = RouterProcess.run(dist, Map.of(), "check", "--config", dist.configFor(
                    java.util.List.of(a, b), "proxy: { backend-timeout: 3s }").toString(), "--against", admin);
            RouterProcess.Result fewer = RouterProcess.run(dist, Map.of(), "check", "--config", dist.configFor(
                    java.util.List.of(a, b), "proxy: { backend-timeout: 3s, max-requests: 7 }").toString(),
                    "--against", admin);

            assertEquals(0, same.exitCode(), same.stderr());
            assertTrue(same.stdout().contains("same placement: every key stays with its owner"), same.stdout());
            assertTrue(same.stdout().contains("same configuration as the running router: a reload would change"
                    + " nothing"), same.stdout());
            assertTrue(grown.stdout().contains("differs from the running router: backends.static\n"
                    + "a reload (SIGHUP) would apply it"), grown.stdout());
            assertTrue(slower.stdout().contains("differs from the running router: proxy.backend-timeout (10s -> 3s)\n"
                    + "a reload (SIGHUP) would apply it"), slower.stdout());
            assertTrue(fewer.stdout().contains("a reload would be refused: only a restart changes"
                    + " proxy.max-requests (1024 -> 7)"), fewer.stdout());
            assertEquals(0, grown.exitCode(), grown.stderr());
            java.util.regex.Matcher moved = java.util.regex.Pattern
                    .compile("placement differs: (\\d+) of 10000 sample keys").matcher(grown.stdout());
            assertTrue(moved.find(), grown.stdout());
            // a third backend takes about a third of the keys, and only those move
            int count = Integer.parseInt(moved.group(1));
            assertTrue(count > 2500 && count < 4200, grown.stdout());
        }
    }

    @Test
    void againstNothingListeningCheckFailsInOneLine() {
        RouterProcess.Result check = RouterProcess.run(dist,
                Map.of("INSIKA_ROUTER_BACKENDS", "http://127.0.0.1:9292"), "check", "--against", "http://127.0.0.1:1");

        assertEquals(1, check.exitCode(), check.stdout());
        assertEquals(1, check.errorLines().size(), check.stderr());
        assertTrue(check.stderr().contains("cannot read http://127.0.0.1:1/observe/backends"), check.stderr());
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
