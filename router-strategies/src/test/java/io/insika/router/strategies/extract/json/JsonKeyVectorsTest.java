package io.insika.router.strategies.extract.json;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Random;
import java.util.concurrent.TimeUnit;

import com.fasterxml.jackson.core.JsonEncoding;
import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import io.insika.router.api.KeyExtractor;
import io.insika.router.api.PluginOptions;
import io.insika.router.strategies.extract.TestRequests;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import static org.hamcrest.MatcherAssert.assertThat;
import static org.hamcrest.Matchers.empty;
import static org.hamcrest.Matchers.greaterThanOrEqualTo;
import static org.hamcrest.Matchers.is;

/**
 * The json-field rule is the common parsers' reading: the router, Node's JSON.parse and Python's
 * json.loads take the same key from every body of json-key-vectors.json (duplicates, escapes,
 * nesting, numbers, null, malformed JSON), and from thousands of numbers no table lists.
 */
class JsonKeyVectorsTest {

    private static final Path RESOURCES = Path.of("src/test/resources").toAbsolutePath();
    private static final Path VECTORS = RESOURCES.resolve("json-key-vectors.json");
    private static final JsonFactory JSON = new JsonFactory();

    @Test
    void theExtractorTakesEveryRowsKey() throws IOException {
        List<Row> rows = Row.read(VECTORS);
        List<String> mismatches = new ArrayList<>();
        for (Row row : rows) {
            Optional<String> key = row.extractor().extract(TestRequests.jsonBody(row.body()));
            if (!key.equals(Optional.ofNullable(row.key()))) {
                mismatches.add(row.why() + ": " + row.body() + " gives " + key);
            }
        }
        assertThat(mismatches, empty());
        assertThat(rows.size(), greaterThanOrEqualTo(90));
    }

    @Test
    void nodesJsonParseTakesEveryRowsKey() throws Exception {
        assertThat(node(VECTORS), is(Row.read(VECTORS).size() + " rows, 0 mismatches"));
    }

    @Test
    void pythonsJsonTakesEveryRowsKey() throws Exception {
        assertThat(python(VECTORS), is(Row.read(VECTORS).size() + " rows, 0 mismatches"));
    }

    // Every parser refuses a document cut short; so does the router, wherever the body ends.
    // (A body that goes on past the cap is another matter: JsonFieldCapTest.)
    @Test
    void aBodyThatEndsBeforeItsDocumentDoesHasNoKey() throws IOException {
        List<String> keyed = new ArrayList<>();
        for (Row row : Row.read(VECTORS)) {
            if (row.key() == null) {
                continue;
            }
            byte[] body = row.body().getBytes(StandardCharsets.UTF_8);
            int end = row.body().stripTrailing().getBytes(StandardCharsets.UTF_8).length;
            for (int length = 0; length < end; length++) {
                Optional<String> key = row.extractor().extract(TestRequests.request()
                        .body(Arrays.copyOf(body, length), TestRequests.DEFAULT_LIMIT).build());
                if (key.isPresent()) {
                    keyed.add(row.why() + ": ended after " + length + " bytes gives " + key.get());
                }
            }
        }
        assertThat(keyed, empty());
    }

    @Test
    void numbersAreKeyedAsNodeWritesThemAndNameTheNumberPythonReads(@TempDir Path directory) throws Exception {
        KeyExtractor n = new JsonFieldKeyExtractorProvider().create(PluginOptions.of("field", "n"));
        List<Row> rows = new ArrayList<>();
        for (String number : randomNumbers(new Random(27), 3_000)) {
            String body = "{\"n\":" + number + "}";
            rows.add(new Row("random number " + number, "n", null, body,
                    n.extract(TestRequests.jsonBody(body)).orElseThrow()));
        }
        Path table = Row.write(directory.resolve("numbers.json"), rows);

        assertThat(node(table), is(rows.size() + " rows, 0 mismatches"));
        assertThat(python(table), is(rows.size() + " rows, 0 mismatches"));
    }

    // Doubles of every magnitude as Java writes them (1.0E-5), and decimal texts longer and wider
    // than a double holds, written every way JSON allows.
    private static List<String> randomNumbers(Random random, int count) {
        List<String> numbers = new ArrayList<>();
        while (numbers.size() < count / 3) {
            double value = Double.longBitsToDouble(random.nextLong());
            if (Double.isFinite(value)) {
                numbers.add(Double.toString(value));
            }
        }
        while (numbers.size() < count) {
            StringBuilder text = new StringBuilder(random.nextBoolean() ? "-" : "");
            text.append(1 + random.nextInt(9)).append(digits(random, random.nextInt(25)));
            if (random.nextBoolean()) {
                text.append('.').append(digits(random, 1 + random.nextInt(20)));
            }
            if (random.nextBoolean()) {
                text.append(random.nextBoolean() ? 'e' : 'E').append(List.of("", "+", "-").get(random.nextInt(3)))
                        .append(random.nextInt(330));
            }
            numbers.add(text.toString());
        }
        return numbers;
    }

    private static String digits(Random random, int count) {
        StringBuilder digits = new StringBuilder();
        for (int i = 0; i < count; i++) {
            digits.append(random.nextInt(10));
        }
        return digits.toString();
    }

    private static String node(Path table) throws Exception {
        return run("node (tools/ci-deps.sh installs it: apt-get install nodejs)",
                "node", "json-key-vectors.mjs", table.toString());
    }

    private static String python(Path table) throws Exception {
        return run("/usr/bin/python3 (tools/ci-deps.sh installs it: apt-get install python3)",
                "/usr/bin/python3", "json_key_vectors.py", table.toString());
    }

    private static String run(String program, String... command) throws Exception {
        Process process;
        try {
            process = new ProcessBuilder(command).directory(RESOURCES.toFile()).redirectErrorStream(true).start();
        } catch (IOException missing) {
            throw new AssertionError("cannot run " + program + ": " + missing.getMessage(), missing);
        }
        String output = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8).strip();
        assertThat(String.join(" ", command) + " timed out", process.waitFor(60, TimeUnit.SECONDS), is(true));
        assertThat(String.join(" ", command) + ": " + output, process.exitValue(), is(0));
        return output;
    }

    /** One row of a vector table: the key is {@code null} where the router takes no key. */
    private record Row(String why, String field, String pointer, String body, String key) {

        KeyExtractor extractor() {
            return new JsonFieldKeyExtractorProvider().create(
                    field != null ? PluginOptions.of("field", field) : PluginOptions.of("pointer", pointer));
        }

        static List<Row> read(Path table) throws IOException {
            List<Row> rows = new ArrayList<>();
            try (JsonParser parser = JSON.createParser(table.toFile())) {
                parser.nextToken();
                while (parser.nextToken() == JsonToken.FIELD_NAME) {
                    boolean isRows = parser.currentName().equals("rows");
                    parser.nextToken();
                    if (!isRows) {
                        parser.skipChildren();
                        continue;
                    }
                    while (parser.nextToken() == JsonToken.START_OBJECT) {
                        Map<String, String> row = new HashMap<>();
                        while (parser.nextToken() == JsonToken.FIELD_NAME) {
                            String name = parser.currentName();
                            row.put(name, parser.nextToken() == JsonToken.VALUE_NULL ? null : parser.getText());
                        }
                        rows.add(new Row(row.get("why"), row.get("field"), row.get("pointer"), row.get("body"),
                                row.get("key")));
                    }
                }
            }
            return rows;
        }

        static Path write(Path table, List<Row> rows) throws IOException {
            try (JsonGenerator out = JSON.createGenerator(table.toFile(), JsonEncoding.UTF8)) {
                out.writeStartObject();
                out.writeArrayFieldStart("rows");
                for (Row row : rows) {
                    out.writeStartObject();
                    out.writeStringField("why", row.why());
                    out.writeStringField(row.field() != null ? "field" : "pointer",
                            row.field() != null ? row.field() : row.pointer());
                    out.writeStringField("body", row.body());
                    out.writeStringField("key", row.key());
                    out.writeEndObject();
                }
                out.writeEndArray();
                out.writeEndObject();
            }
            return table;
        }
    }
}
