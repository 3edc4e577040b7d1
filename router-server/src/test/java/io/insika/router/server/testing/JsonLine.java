package io.insika.router.server.testing;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.LinkedHashMap;
import java.util.Map;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;

/** One log line read as a flat JSON object: strings, numbers (as text) and nulls, nothing after it. */
public final class JsonLine {

    private static final JsonFactory JSON = new JsonFactory();

    private JsonLine() {
    }

    /**
     * The fields of the object, in order; fails unless the line is exactly one flat JSON object.
     *
     * @param line one line of a log
     * @return field name to value ({@code null} for JSON null, numbers as written)
     */
    public static Map<String, String> parse(String line) {
        Map<String, String> fields = new LinkedHashMap<>();
        try (JsonParser json = JSON.createParser(line)) {
            if (json.nextToken() != JsonToken.START_OBJECT) {
                throw new AssertionError("not a JSON object: " + line);
            }
            for (JsonToken token = json.nextToken(); token != JsonToken.END_OBJECT; token = json.nextToken()) {
                String name = json.currentName();
                JsonToken value = json.nextToken();
                if (value == JsonToken.START_OBJECT || value == JsonToken.START_ARRAY) {
                    throw new AssertionError("not flat: " + line);
                }
                fields.put(name, value == JsonToken.VALUE_NULL ? null : json.getText());
            }
            if (json.nextToken() != null) {
                throw new AssertionError("more after the object: " + line);
            }
        } catch (IOException e) {
            throw new UncheckedIOException("not JSON: " + line, e);
        }
        return fields;
    }
}
