package io.insika.router.distribution;

import java.io.IOException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Standard error carries the router's log and nothing else: a collector reading it line by line
 * (one JSON object each, or the text format) never meets a JVM warning, a library's notice or a
 * stray print, whichever shipped strategy places the keys.
 */
class StartupStderrTest {

    // the text format's record head: a timestamp, then the level (docs/configuration.md, logging)
    private static final Pattern TEXT_RECORD = Pattern.compile("\\d{4}-\\d{2}-\\d{2}[ T]\\d{2}:\\d{2}:\\d{2}\\S* +[A-Z]+ .*");
    private static final Pattern KNOWN = Pattern.compile(": \\[no-such-strategy] \\(known: ([^)]*)\\)");
    private static final JsonFactory JSON = new JsonFactory();

    private final UnpackedDistribution dist = UnpackedDistribution.unpack();

    @Test
    void everyShippedStrategyStartsServesAndStopsWithOnlyLogRecordsOnStandardError() throws Exception {
        List<String> strategies = shippedStrategies();
        assertTrue(strategies.containsAll(List.of("ketama", "rendezvous", "round-robin")), strategies.toString());

        List<String> stray = new ArrayList<>();
        try (WhoAmIBackend a = new WhoAmIBackend("a"); WhoAmIBackend b = new WhoAmIBackend("b")) {
            for (String strategy : strategies) {
                for (String format : List.of("text", "json")) {
                    String stderr = startServeAndStop(List.of(a, b), strategy, format);
                    stderr.lines().filter(line -> !isLogRecord(line, format))
                            .forEach(line -> stray.add(strategy + ", " + format + ": " + line));
                }
            }
        }
        assertEquals(List.of(), stray);
    }

    // what the distribution itself says it ships, so a strategy added later is covered too
    private List<String> shippedStrategies() {
        RouterProcess.Result check = RouterProcess.run(dist, Map.of("INSIKA_ROUTER_STRATEGY", "no-such-strategy",
                "INSIKA_ROUTER_BACKENDS", "http://127.0.0.1:9292"), "check");
        Matcher known = KNOWN.matcher(check.stderr());
        assertTrue(known.find(), check.stderr());
        return Arrays.stream(known.group(1).split(", ")).map(String::strip).toList();
    }

    private String startServeAndStop(List<WhoAmIBackend> backends, String strategy, String format) {
        try (RouterProcess router = RouterProcess.start(dist, Map.of("INSIKA_ROUTER_STRATEGY", strategy,
                "INSIKA_ROUTER_LOG_FORMAT", format), "--config", dist.configFor(backends, "").toString())
                .awaitListening()) {
            // a keyed request: the strategy's picker places it, as traffic would
            assertEquals(200, Http.postJson(router.port(), "/v1/responses", "{\"user\":\"carol\"}").statusCode(),
                    router.stderr());
            RouterProcess.Result stopped = router.terminate();
            assertEquals(0, stopped.exitCode(), stopped.stderr());
            return stopped.stderr();
        }
    }

    private static boolean isLogRecord(String line, String format) {
        return format.equals("json") ? isJsonRecord(line) : TEXT_RECORD.matcher(line).matches();
    }

    // one object per line, with the level and the message a collector keys on
    private static boolean isJsonRecord(String line) {
        try (JsonParser json = JSON.createParser(line)) {
            if (json.nextToken() != JsonToken.START_OBJECT) {
                return false;
            }
            boolean level = false;
            boolean message = false;
            while (json.nextToken() == JsonToken.FIELD_NAME) {
                String name = json.currentName();
                json.nextToken();
                json.skipChildren();
                level |= name.equals("level");
                message |= name.equals("message");
            }
            return json.currentToken() == JsonToken.END_OBJECT && json.nextToken() == null && level && message;
        } catch (IOException e) {
            return false;
        }
    }
}
