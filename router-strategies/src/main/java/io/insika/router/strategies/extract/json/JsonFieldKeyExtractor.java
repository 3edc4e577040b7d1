package io.insika.router.strategies.extract.json;

import java.io.EOFException;
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
 * Reads the key from a JSON body with jackson's streaming parser, the way the common parsers
 * (JSON.parse, Python's json, Go, Jackson databind) read the field: the last occurrence wins at
 * every level of the path. So the whole document is walked, other values skipped without being
 * built, and a key is given only when the document ended within the body prefix: any part of it
 * left unread could hold a later occurrence.
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

    // Nothing after the document is read: no parser takes another value from it. A strict one
    // (JSON.parse, Python's json) refuses the whole body, a streaming one (Go's json.Decoder,
    // Jackson's ObjectMapper) stops at this first value too.
    private Optional<String> find(JsonParser parser) throws IOException {
        return keyIn(parser, parser.nextToken(), 0);
    }

    // Reads the value the parser is on to its end; returns the key the path from this step names in it.
    private Optional<String> keyIn(JsonParser parser, JsonToken token, int step) throws IOException {
        if (step == path.steps().size()) {
            return keyAt(parser, token);
        }
        FieldPath.Step next = path.steps().get(step);
        Optional<String> key = Optional.empty();
        if (token == JsonToken.START_OBJECT) {
            for (JsonToken name = inside(parser); name == JsonToken.FIELD_NAME; name = inside(parser)) {
                boolean wanted = next.name().equals(parser.currentName());
                JsonToken value = inside(parser);
                if (wanted) {
                    key = keyIn(parser, value, step + 1); // a later occurrence replaces it, whatever it holds
                } else {
                    parser.skipChildren(); // iterative in jackson: a deep value cannot overflow the stack
                }
            }
        } else if (token == JsonToken.START_ARRAY && next.index() >= 0) {
            int index = 0;
            for (JsonToken value = inside(parser); value != JsonToken.END_ARRAY; value = inside(parser)) {
                if (index++ == next.index()) {
                    key = keyIn(parser, value, step + 1);
                } else {
                    parser.skipChildren();
                }
            }
        } else {
            parser.skipChildren();
        }
        return key;
    }

    // Jackson reports a body that ends inside an object or array as an error; this makes sure of it,
    // since a document cut short must never yield the key.
    private static JsonToken inside(JsonParser parser) throws IOException {
        JsonToken token = parser.nextToken();
        if (token == null) {
            throw new EOFException("the body ended inside the document");
        }
        return token;
    }

    private static Optional<String> keyAt(JsonParser parser, JsonToken token) throws IOException {
        String key;
        if (token == JsonToken.VALUE_STRING) {
            key = parser.getText();
        } else if (token == JsonToken.VALUE_NUMBER_INT || token == JsonToken.VALUE_NUMBER_FLOAT) {
            key = NumberKeyText.of(parser.getText());
        } else {
            parser.skipChildren();
            return Optional.empty();
        }
        return key.isBlank() || key.length() > MAX_KEY_LENGTH ? Optional.empty() : Optional.of(key);
    }
}
