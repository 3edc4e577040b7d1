package io.insika.router.distribution;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** {@code kill -HUP} on the unpacked distribution: the edited file applies, or is refused and logged. */
class ReloadTest {

    @Test
    void sighupRefusesABrokenFileThenAppliesTheFixedOneWithoutAnyRequestFailing() throws Exception {
        UnpackedDistribution dist = UnpackedDistribution.unpack();
        try (WhoAmIBackend one = new WhoAmIBackend("one");
             WhoAmIBackend two = new WhoAmIBackend("two")) {
            Path config = dist.configFor(List.of(one), "");
            try (RouterProcess router = RouterProcess.start(dist, Map.of(), "--config", config.toString())
                    .awaitListening()) {
                assertFalse(router.stderr().contains("SIGHUP is ignored"), router.stderr());
                assertEquals("one", Http.postJson(router.port(), "/v1/responses", "{\"user\":\"u0\"}").body());

                // the new backend and the access log, beside a mistake: nothing of it applies
                String next = Files.readString(dist.configFor(List.of(one, two), "proxy: { access-log: true }"));
                Files.writeString(config, next.replace("access-log: true", "access-log: true, backend-timeout: soon"));
                hangUp(router);
                await(router, "reload: proxy.backend-timeout: [soon]");
                assertTrue(router.stderr().contains("reload refused, keeping the running configuration: the file has 1"
                        + " problem(s)"), router.stderr());
                for (int i = 0; i < 20; i++) {
                    assertEquals("one", Http.postJson(router.port(), "/v1/responses", "{\"user\":\"u" + i + "\"}")
                            .body());
                }

                Files.writeString(config, next);
                hangUp(router);
                await(router, "reload applied: ");
                long onTwo = 0;
                for (int i = 0; i < 40; i++) {
                    String answer = Http.postJson(router.port(), "/v1/responses", "{\"user\":\"u" + i + "\"}").body();
                    assertTrue(answer.equals("one") || answer.equals("two"), answer);
                    onTwo += answer.equals("two") ? 1 : 0;
                }
                assertTrue(onTwo > 0 && onTwo < 40, "the added backend owns some sessions: " + onTwo);
                String metrics = Http.get(router.adminPort(), "/observe/metrics", Map.of()).body();
                assertTrue(metrics.contains("insika_router_config_reloads_total{result=\"applied\"} 1.0"), metrics);
                assertTrue(metrics.contains("insika_router_config_reloads_total{result=\"invalid\"} 1.0"), metrics);
                assertTrue(metrics.contains("insika_router_config_last_reload_successful 1.0"), metrics);

                RouterProcess.Result stopped = router.terminate();
                assertEquals(0, stopped.exitCode(), stopped.stderr());
                List<String> access = stopped.stdout().lines().toList();
                assertEquals(40, access.size(), "only requests after the reload are access-logged: " + stopped.stdout());
                assertFalse(stopped.stdout().contains("u1"), "keys are never logged in clear");
            }
        }
    }

    @Test
    void withAWatchIntervalAnEditedFileIsReloadedWithoutASignal() throws Exception {
        UnpackedDistribution dist = UnpackedDistribution.unpack();
        try (WhoAmIBackend one = new WhoAmIBackend("one");
             WhoAmIBackend two = new WhoAmIBackend("two")) {
            String watching = "reload: { watch-interval: 100ms }";
            Path config = dist.configFor(List.of(one), watching);
            try (RouterProcess router = RouterProcess.start(dist, Map.of(), "--config", config.toString())
                    .awaitListening()) {
                Files.writeString(config, Files.readString(dist.configFor(List.of(two), watching)));
                await(router, "reload applied: backends.static");
                assertEquals("two", Http.postJson(router.port(), "/v1/responses", "{\"user\":\"w\"}").body());
            }
        }
    }

    @Test
    void aRouterStartedWithSighupIgnoredSaysSoAndPointsAtTheWatchInterval() throws Exception {
        UnpackedDistribution dist = UnpackedDistribution.unpack();
        try (WhoAmIBackend one = new WhoAmIBackend("one")) {
            Path config = dist.configFor(List.of(one), "");
            // as nohup starts it: SIGHUP ignored before the JVM starts, which then cannot handle it
            List<String> nohup = List.of("sh", "-c", "trap '' HUP; exec \"$0\" \"$@\"", dist.script().toString(),
                    "--config", config.toString());
            try (RouterProcess router = RouterProcess.start(nohup, Map.of("PATH", System.getenv("PATH"),
                    "JAVA_HOME", System.getProperty("java.home"))).awaitListening()) {
                assertTrue(router.stderr().lines().anyMatch(line -> line.matches("\\S+Z WARN  \\S+: SIGHUP is ignored in"
                        + " this process \\(started with nohup\\?\\), so it does not reload the configuration: set"
                        + " reload\\.watch-interval to reload on a change of the file, or start without SIGHUP ignored")),
                        router.stderr());

                hangUp(router);
                RouterProcess.sleep(500);

                assertTrue(router.isAlive(), router.stderr());
                assertFalse(router.stderr().contains("reloading"), router.stderr());
            }
        }
    }

    private static void hangUp(RouterProcess router) throws IOException, InterruptedException {
        Process kill = new ProcessBuilder("kill", "-HUP", String.valueOf(router.pid())).inheritIO().start();
        assertEquals(0, kill.waitFor());
    }

    private static void await(RouterProcess router, String line) {
        Matcher seen = Pattern.compile(Pattern.quote(line)).matcher("");
        long deadline = System.nanoTime() + 20_000_000_000L;
        while (!seen.reset(router.stderr()).find()) {
            assertTrue(router.isAlive(), "the router exited: " + router.stderr());
            assertTrue(System.nanoTime() < deadline, "no \"" + line + "\" in " + router.stderr());
            RouterProcess.sleep(50);
        }
    }
}
