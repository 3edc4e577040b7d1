package io.insika.router.distribution;

import java.io.IOException;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The router's own log as a collector reads it: levels by their usual names, times in RFC 3339. */
class RouterLogTest {

    private static final String RFC_3339 = "\\d{4}-\\d\\d-\\d\\dT\\d\\d:\\d\\d:\\d\\d\\.\\d{3}Z";

    private final UnpackedDistribution dist = UnpackedDistribution.unpack();

    @Test
    void jsonLinesCarryTheLevelAsDebugInfoWarnOrErrorAndTheTimeInRfc3339() throws Exception {
        try (WhoAmIBackend backend = new WhoAmIBackend("json-one");
             RouterProcess router = RouterProcess.start(dist,
                     Map.of("INSIKA_ROUTER_LOG_FORMAT", "json", "INSIKA_ROUTER_LOG_LEVEL", "debug"),
                     "--config", dist.configFor(List.of(backend), "").toString()).awaitListening()) {
            assertEquals(200, Http.postJson(router.port(), "/v1/responses", "{\"user\":\"erin\"}").statusCode());

            RouterProcess.Result stopped = router.terminate();

            List<Map<String, String>> log = stopped.errorLines().stream().map(RouterLogTest::object).toList();
            assertTrue(log.stream().allMatch(line -> Set.of("debug", "info", "warn", "error").contains(line.get("level"))
                    && line.get("time").matches(RFC_3339)), stopped.stderr());
            assertTrue(log.stream().anyMatch(line -> line.get("level").equals("info")
                    && line.get("message").startsWith("listening on ")), stopped.stderr());
            assertTrue(log.stream().anyMatch(line -> line.get("level").equals("debug")
                    && line.get("logger").startsWith("io.insika.router.")), "debug asked: " + stopped.stderr());
            assertFalse(stopped.stderr().contains("erin"), "the key is never logged in clear");
        }
    }

    @Test
    void textLinesStartWithTheTimeInRfc3339AndTheLevel() throws Exception {
        try (WhoAmIBackend backend = new WhoAmIBackend("text-one");
             RouterProcess router = RouterProcess.start(dist, Map.of(),
                     "--config", dist.configFor(List.of(backend), "").toString()).awaitListening()) {
            RouterProcess.Result stopped = router.terminate();

            assertTrue(stopped.errorLines().stream().allMatch(line -> line.matches(RFC_3339
                    + " (DEBUG|INFO |WARN |ERROR) \\S+: .*")), stopped.stderr());
        }
    }

    @Test
    void checkReportsEveryProblemInOneRunTheStrategyAndExtractorNamesIncluded() {
        RouterProcess.Result check = RouterProcess.run(dist, Map.of(), "check", "--config", dist.config("broken.yaml", """
                server: { port: 70000 }
                strategy: { name: ketamma }
                routes: [ { path: /a, keys: [ { type: jsn-field, field: user } ] } ]
                """).toString());

        assertEquals(1, check.exitCode(), check.stderr());
        Set<String> named = check.errorLines().stream()
                .map(line -> line.substring("insika-router: ".length(), line.indexOf(": [")))
                .collect(java.util.stream.Collectors.toSet());
        assertEquals(Set.of("server.port", "strategy.name", "routes[0].keys[0].type"), named, check.stderr());
    }

    private static Map<String, String> object(String line) {
        Map<String, String> fields = new LinkedHashMap<>();
        try (JsonParser json = new JsonFactory().createParser(line)) {
            assertEquals(JsonToken.START_OBJECT, json.nextToken(), line);
            while (json.nextToken() == JsonToken.FIELD_NAME) {
                String name = json.currentName();
                json.nextToken();
                fields.put(name, json.getText());
            }
        } catch (IOException e) {
            throw new AssertionError("not JSON: " + line, e);
        }
        return fields;
    }
}
