package io.insika.router.distribution;

import java.util.List;
import java.util.Map;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
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
                    + "key=#[0-9a-f]{12} error=- request_id=[0-9a-f]{16}-[0-9a-f]+ host=\\S+ protocol=HTTP/1\\.1 user_agent=\\S+"
                    + " bytes_in=\\d+ backend_ms=[\\d.]+"), lines.get(0));
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

    @Test
    void withJsonLogsEveryLineOfBothLogsIsOneJsonObject() throws Exception {
        UnpackedDistribution dist = UnpackedDistribution.unpack();
        try (WhoAmIBackend backend = new WhoAmIBackend("json-one");
             RouterProcess router = RouterProcess.start(dist,
                     Map.of("INSIKA_ROUTER_ACCESS_LOG", "true", "INSIKA_ROUTER_LOG_FORMAT", "json"),
                     "--config", dist.configFor(List.of(backend), "").toString()).awaitListening()) {
            assertEquals(200, Http.postJson(router.port(), "/v1/responses", "{\"user\":\"erin\"}").statusCode());

            RouterProcess.Result stopped = router.terminate();

            List<Map<String, String>> access = stopped.stdout().lines().map(AccessLogTest::object).toList();
            assertEquals(1, access.size(), stopped.stdout());
            assertEquals("/v1/responses", access.get(0).get("path"));
            assertEquals("200", access.get(0).get("status"));
            assertTrue(access.get(0).get("key").matches("#[0-9a-f]{12}"), stopped.stdout());
            assertFalse(stopped.stdout().contains("erin"), "the key is never logged in clear");
            List<Map<String, String>> log = stopped.errorLines().stream().map(AccessLogTest::object).toList();
            assertTrue(log.stream().anyMatch(line -> line.get("message").startsWith("listening on ")), stopped.stderr());
            assertTrue(log.stream().allMatch(line -> line.keySet().containsAll(List.of("time", "level", "logger",
                    "message"))), stopped.stderr());
        }
    }

    /** A line that must be exactly one flat JSON object. */
    private static Map<String, String> object(String line) {
        Map<String, String> fields = new java.util.LinkedHashMap<>();
        try (JsonParser json = new JsonFactory().createParser(line)) {
            assertEquals(JsonToken.START_OBJECT, json.nextToken(), line);
            while (json.nextToken() == JsonToken.FIELD_NAME) {
                String name = json.currentName();
                json.nextToken();
                fields.put(name, json.currentToken() == JsonToken.VALUE_NULL ? null : json.getText());
            }
            assertEquals(null, json.nextToken(), "one object per line: " + line);
        } catch (java.io.IOException e) {
            throw new AssertionError("not JSON: " + line, e);
        }
        return fields;
    }
}
