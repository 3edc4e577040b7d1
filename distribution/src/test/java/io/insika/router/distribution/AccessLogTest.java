package io.insika.router.distribution;

import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The access log goes to standard output when switched on, and is off unless it is. */
class AccessLogTest {

    @Test
    void theEnvironmentSwitchesTheAccessLogOnAndItGoesToStandardOutput() throws Exception {
        UnpackedDistribution dist = UnpackedDistribution.unpack();
        try (WhoAmIBackend backend = new WhoAmIBackend("logged-one");
             RouterProcess router = RouterProcess.start(dist, Map.of("INSIKA_ROUTER_ACCESS_LOG", "true"),
                     "--config", dist.configFor(List.of(backend), "").toString()).awaitListening()) {
            assertEquals(200, Http.postJson(router.port(), "/v1/responses", "{\"user\":\"carol\"}").statusCode());

            RouterProcess.Result stopped = router.terminate();

            List<String> lines = stopped.stdout().lines().toList();
            assertEquals(1, lines.size(), stopped.stdout());
            assertTrue(lines.get(0).matches("time=[-0-9T:.]+Z client=127\\.0\\.0\\.1:\\d+ method=POST "
                    + "path=/v1/responses status=200 bytes=\\d+ ms=[\\d.]+ backend=127\\.0\\.0\\.1:\\d+ placement=key "
                    + "key=#[0-9a-f]{12} error=- request_id=-"), lines.get(0));
            assertFalse(stopped.stdout().contains("carol"), "the key is never logged in clear");
        }
    }

    @Test
    void thereIsNoAccessLogUnlessAskedFor() throws Exception {
        UnpackedDistribution dist = UnpackedDistribution.unpack();
        try (WhoAmIBackend backend = new WhoAmIBackend("quiet-one");
             RouterProcess router = RouterProcess.start(dist, Map.of(),
                     "--config", dist.configFor(List.of(backend), "").toString()).awaitListening()) {
            assertEquals(200, Http.postJson(router.port(), "/v1/responses", "{\"user\":\"dave\"}").statusCode());

            RouterProcess.Result stopped = router.terminate();

            assertEquals("", stopped.stdout());
            assertFalse(stopped.stderr().contains("method=POST"), stopped.stderr());
        }
    }
}
