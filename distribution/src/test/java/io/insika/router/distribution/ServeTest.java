package io.insika.router.distribution;

import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * One router, started from the unpacked tarball with a YAML naming two test backends, used the
 * way an operator would. Also measures start-up time and idle memory (printed, never asserted).
 */
class ServeTest {

    private static final List<WhoAmIBackend> BACKENDS = List.of(new WhoAmIBackend("backend-a"),
            new WhoAmIBackend("backend-b"));
    private static UnpackedDistribution dist;
    private static Path config;
    private static RouterProcess router;

    @BeforeAll
    static void startRouter() throws Exception {
        dist = UnpackedDistribution.unpack();
        config = dist.configFor(BACKENDS, "");
        long started = System.nanoTime();
        router = RouterProcess.start(dist, Map.of(), "--config", config.toString()).awaitListening();
        HttpResponse<String> first = Http.postJson(router.port(), "/v1/responses", "{\"user\":\"first\"}");
        long startupMillis = (System.nanoTime() - started) / 1_000_000;
        assertEquals(200, first.statusCode());
        report("start-up, exec to first proxied response: " + startupMillis + " ms");
    }

    @AfterAll
    static void stopRouter() {
        router.close();
        BACKENDS.forEach(WhoAmIBackend::close);
    }

    @Test
    void requestsOfOneUserAllReachOneBackendAndUsersSpreadOverBoth() {
        Set<String> reached = new HashSet<>();
        for (int user = 0; user < 40; user++) {
            String body = "{\"user\":\"user-" + user + "\",\"input\":\"hi\"}";
            String owner = Http.postJson(router.port(), "/v1/responses", body).body();
            for (int again = 0; again < 3; again++) {
                assertEquals(owner, Http.postJson(router.port(), "/v1/responses", body).body(), "user-" + user);
            }
            reached.add(owner);
        }
        assertEquals(Set.of("backend-a", "backend-b"), reached);
    }

    @Test
    void routeCommandNamesTheBackendTheRunningRouterUses() {
        for (String user : List.of("alice", "bob", "carol", "dave")) {
            String answeredBy = Http.postJson(router.port(), "/v1/messages", "{\"user\":\"" + user + "\"}").body();
            RouterProcess.Result route = RouterProcess.run(dist, Map.of(), "route", user, "--config", config.toString());
            assertEquals(0, route.exitCode(), route.stderr());
            WhoAmIBackend owner = BACKENDS.stream().filter(b -> b.name.equals(answeredBy)).findFirst().orElseThrow();
            // the offline answer names the ring the running router exports: they place alike
            assertEquals(user + " -> " + owner.uri() + " (ring " + ringFingerprint() + ")", route.stdout().strip());
        }
    }

    private static String ringFingerprint() {
        java.util.regex.Matcher ring = java.util.regex.Pattern.compile("insika_router_ring_info\\{fingerprint=\"([0-9a-f]{16})\"}")
                .matcher(Http.get(router.adminPort(), "/observe/metrics", Map.of()).body());
        assertTrue(ring.find(), "the running router exports its ring fingerprint");
        return ring.group(1);
    }

    @Test
    void healthIsOnTheAdminPortAndReadyWithBackends() {
        HttpResponse<String> ready = Http.get(router.adminPort(), "/observe/health/ready", Map.of());
        assertEquals(200, ready.statusCode(), ready.body());
        assertEquals(200, Http.get(router.adminPort(), "/observe/health/live", Map.of()).statusCode());
    }

    @Test
    void metricsAreOnTheAdminPortInPrometheusText() {
        Http.postJson(router.port(), "/v1/responses", "{\"user\":\"metered\"}");
        HttpResponse<String> metrics = Http.get(router.adminPort(), "/observe/metrics", Map.of());

        assertEquals(200, metrics.statusCode());
        assertTrue(metrics.headers().firstValue("Content-Type").orElseThrow().startsWith("text/plain; version=0.0.4"));
        assertTrue(metrics.body().lines().anyMatch(line -> line.startsWith(
                "insika_router_requests_total{placement=\"key\",route=\"POST /v1/responses\"} ")), metrics.body());
        assertTrue(metrics.body().contains("\njvm_memory_used_bytes{area=\"heap\"} "), "JVM metrics ship in lib/");
    }

    @Test
    void observePathsOnTheProxyPortAreProxiedNotAnswered() {
        HttpResponse<String> proxied = Http.get(router.port(), "/observe/health", Map.of());
        assertTrue(proxied.body().startsWith("backend-"), proxied.body());
    }

    @Test
    void idleRouterMemoryIsMeasured() throws Exception {
        RouterProcess.sleep(2000);
        Process ps = new ProcessBuilder("ps", "-o", "rss=", "-p", String.valueOf(router.pid())).start();
        String rssKb = new String(ps.getInputStream().readAllBytes()).strip();
        assertEquals(0, ps.waitFor());
        report("idle RSS of the router: " + Long.parseLong(rssKb) / 1024 + " MiB");
    }

    /** Measurements go to the test output and to target/measurements.txt, for the closing note. */
    static void report(String line) throws Exception {
        System.out.println(line);
        Files.writeString(Path.of("target", "measurements.txt"), line + System.lineSeparator(),
                java.nio.file.StandardOpenOption.CREATE, java.nio.file.StandardOpenOption.APPEND);
    }
}
