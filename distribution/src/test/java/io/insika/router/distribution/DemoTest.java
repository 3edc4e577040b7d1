package io.insika.router.distribution;

import java.net.URI;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.util.HashSet;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

class DemoTest {

    @Test
    void demoAnswersTheCurlLinesItPrintsAndKeepsEachUserOnOneBackend() {
        UnpackedDistribution dist = UnpackedDistribution.unpack();
        try (RouterProcess demo = RouterProcess.start(dist, Map.of(), "demo", "--port", "0").awaitListening()) {
            waitForTryLines(demo);
            assertTrue(demo.stdout().contains("curl -s -X POST http://127.0.0.1:" + demo.port() + "/v1/responses"),
                    demo.stdout());

            String alice = Http.postJson(demo.port(), "/v1/responses", "{\"user\":\"alice\",\"input\":\"hello\"}").body();
            assertTrue(alice.contains("\"backend\":\"demo-"), alice);
            for (int i = 0; i < 2; i++) {
                assertEquals(alice, Http.postJson(demo.port(), "/v1/responses", "{\"user\":\"alice\"}").body());
            }
            Set<String> backends = new HashSet<>();
            for (int user = 0; user < 30; user++) {
                backends.add(Http.postJson(demo.port(), "/v1/responses", "{\"user\":\"u" + user + "\"}").body());
            }
            assertEquals(3, backends.size(), "thirty users spread over the three demo backends");

            String metricsLine = "Metrics (admin port): curl -s http://127.0.0.1:" + demo.adminPort() + "/observe/metrics";
            assertTrue(demo.stdout().contains(metricsLine), demo.stdout());
            String metrics = Http.get(demo.adminPort(), "/observe/metrics", Map.of()).body();
            assertTrue(metrics.contains("insika_router_requests_total{placement=\"key\",route=\"POST /v1/responses\"} 33.0"),
                    metrics);
            assertEquals(0, demo.terminate().exitCode());
        }
    }

    @Test
    void aStoppedDemoBackendMovesNoSessionAndItsSessionResumesThereWhenItIsBack() {
        UnpackedDistribution dist = UnpackedDistribution.unpack();
        try (RouterProcess demo = RouterProcess.start(dist, Map.of(), "demo", "--port", "0").awaitListening()) {
            waitForTryLines(demo);
            Matcher stopLine = Pattern.compile("curl -s -X POST http://127\\.0\\.0\\.1:(\\d+)/demo/stop").matcher(demo.stdout());
            Matcher sessionLine = Pattern.compile("and (\\S+), whose session lives on (demo-\\d)").matcher(demo.stdout());
            assertTrue(stopLine.find() && sessionLine.find(), demo.stdout());
            String user = sessionLine.group(1);
            String stopped = sessionLine.group(2);
            String session = "{\"user\":\"" + user + "\"}";
            assertTrue(Http.postJson(demo.port(), "/v1/responses", session).body().contains(stopped));

            Http.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + stopLine.group(1) + "/demo/stop?for=3"))
                    .POST(HttpRequest.BodyPublishers.noBody()).build());
            RouterProcess.sleep(500);
            for (int i = 0; i < 10; i++) {
                HttpResponse<String> unkeyed = Http.get(demo.port(), "/studio/anything", Map.of());
                assertEquals(200, unkeyed.statusCode(), unkeyed.body());
                assertFalse(unkeyed.body().contains(stopped), unkeyed.body());
            }
            HttpResponse<String> waiting = Http.postJson(demo.port(), "/v1/responses", session);
            assertEquals(503, waiting.statusCode(), waiting.body());
            assertTrue(waiting.body().contains("\"retryable\":true"), waiting.body());

            HttpResponse<String> resumed = waiting;
            for (int i = 0; i < 100 && resumed.statusCode() != 200; i++) {
                RouterProcess.sleep(100);
                resumed = Http.postJson(demo.port(), "/v1/responses", session);
            }
            assertEquals(200, resumed.statusCode(), resumed.body());
            assertTrue(resumed.body().contains(stopped), "the session came back to its own backend: " + resumed.body());
        }
    }

    @Test
    void demoOnABusyPortSaysSoInOneLine() throws Exception {
        UnpackedDistribution dist = UnpackedDistribution.unpack();
        try (var busy = new java.net.ServerSocket(0, 1, java.net.InetAddress.getLoopbackAddress())) {
            RouterProcess.Result result = RouterProcess.run(dist, Map.of(), "demo", "--port",
                    String.valueOf(busy.getLocalPort()));
            assertEquals(1, result.exitCode());
            assertEquals(1, result.errorLines().size(), result.stderr());
            assertTrue(result.stderr().contains("port " + busy.getLocalPort() + " is already in use"), result.stderr());
        }
    }

    private static void waitForTryLines(RouterProcess demo) {
        for (int i = 0; i < 500 && !demo.stdout().contains("Ctrl-C"); i++) {
            RouterProcess.sleep(20);
        }
    }
}
