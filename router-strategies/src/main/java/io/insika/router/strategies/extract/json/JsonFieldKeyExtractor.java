package io.insika.router.strategies.extract.json;

import java.io.IOException;
import java.io.InputStream;
import java.util.Optional;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.core.StreamReadConstraints;
import com.fasterxml.jackson.core.StreamReadFeature;
import com.fasterxml.jackson.core.util.JsonRecyclerPools;

import io.insika.router.api.KeyExtractor;
import io.insika.router.api.RequestView;

/**
 * Reads the key from a JSON body with jackson's streaming parser: it walks tokens up to the first
 * occurrence of the wanted field, skips every other value without building it, and stops there,
 * so the body is pulled from the client only as far as the key.
 */
final class JsonFieldKeyExtractor implements KeyExtractor {

    /** Longest key accepted, in chars; also the cap on any field name or number in the body. */
    static final int MAX_KEY_LENGTH = 4096;

    /** Deepest nesting read; deeper bodies yield no key. */
    static final int MAX_NESTING_DEPTH = 128;

    /** The number of pooled parser buffers kept for reuse between requests. */
    private static final int POOLED_BUFFERS = 64;

    private static final JsonFactory JSON = JsonFactory.builder()
            .streamReadConstraints(StreamReadConstraints.builder()
                    .maxNestingDepth(MAX_NESTING_DEPTH)
                    // Strings are only buffered when read as the key: a longer key value fails fast
                    // instead of growing a buffer to the size of the body.
                    .maxStringLength(MAX_KEY_LENGTH)
                    .maxNameLength(MAX_KEY_LENGTH)
                    .maxNumberLength(MAX_KEY_LENGTH)
                    .build())
            // The body is the router's to forward: never close the client's stream.
            .disable(StreamReadFeature.AUTO_CLOSE_SOURCE)
            // Error messages are thrown away; keep body bytes out of them anyway.
            .disable(StreamReadFeature.INCLUDE_SOURCE_IN_LOCATION)
            // Names from untrusted bodies stay out of the JVM's string pool. Name canonicalising
            // stays on: without it jackson reads through a Reader that silently replaces invalid
            // UTF-8, and its shared table is bounded (jackson resets it when a parse adds too many).
            .disable(JsonFactory.Feature.INTERN_FIELD_NAMES)
            // Requests run on virtual threads, where jackson's default thread-local buffer pool
            // would allocate fresh buffers every time; a small shared pool reuses them.
            .recyclerPool(JsonRecyclerPools.newBoundedPool(POOLED_BUFFERS))
            .build();

    private final FieldPath path;

    JsonFieldKeyExtractor(FieldPath path) {
        this.path = path;
    }

    @Override
    public Optional<String> extract(RequestView request) {
        try {
            InputStream body = request.body().open();
            try (JsonParser parser = JSON.createParser(body)) {
                return find(parser);
            }
        } catch (Exception unreadable) {
            // Malformed, truncated, too deep, too long, bad UTF-8, or a failing stream: no key.
            return Optional.empty();
        }
    }

    @Override
    public boolean needsBody() {
        return true;
    }

    private Optional<String> find(JsonParser parser) throws IOException {
        JsonToken token = parser.nextToken();
        for (FieldPath.Step step : path.steps()) {
            boolean entered;
            if (token == JsonToken.START_OBJECT) {
                entered = enterField(parser, step.name());
            } else if (token == JsonToken.START_ARRAY && step.index() >= 0) {
                entered = enterElement(parser, step.index());
            } else {
                entered = false;
            }
            if (!entered) {
                return Optional.empty();
            }
            token = parser.currentToken();
        }
        return keyAt(parser, token);
    }

    // Leaves the parser on the value of the object's first field with this name: first one wins.
    private static boolean enterField(JsonParser parser, String name) throws IOException {
        for (JsonToken token = parser.nextToken(); token == JsonToken.FIELD_NAME; token = parser.nextToken()) {
            boolean wanted = name.equals(parser.currentName());
            parser.nextToken();
            if (wanted) {
                return true;
            }
            // Iterative in jackson, so even a deep value cannot overflow the stack.
            parser.skipChildren();
        }
        return false;
    }

    private static boolean enterElement(JsonParser parser, int index) throws IOException {
        for (int i = 0; ; i++) {
            JsonToken token = parser.nextToken();
            if (token == null || token == JsonToken.END_ARRAY) {
                return false;
            }
            if (i == index) {
                return true;
            }
            parser.skipChildren();
        }
    }

    private static Optional<String> keyAt(JsonParser parser, JsonToken token) throws IOException {
        String key;
        if (token == JsonToken.VALUE_STRING) {
            key = parser.getText();
        } else if (token == JsonToken.VALUE_NUMBER_INT || token == JsonToken.VALUE_NUMBER_FLOAT) {
            key = parser.getText();
            // A number cut off by the prefix's end looks complete ("12" of "123"): trust it only
            // when the JSON after it still parses.
            if (parser.nextToken() == null) {
                return Optional.empty();
            }
        } else {
            return Optional.empty();
        }
        return key.isBlank() || key.length() > MAX_KEY_LENGTH ? Optional.empty() : Optional.of(key);
    }
}
