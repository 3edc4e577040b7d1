package io.insika.router.strategies.extract.json;

import java.io.EOFException;
import java.io.FilterInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.util.Optional;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;

import io.insika.router.api.BodyPrefix;

/**
 * One reading of one body for the key at a path. The JSON document is walked to its end, every
 * value off the path skipped without being built, and each occurrence on the path replaces what the
 * ones before it gave, as the common parsers read duplicates. What the occurrences read so far give
 * is kept, so that a document cut by the cap still has the key of its last occurrence within it.
 * Not thread-safe: one per extraction.
 */
final class KeyWalk {

    private final FieldPath path;
    private Optional<String> key = Optional.empty();
    private WatchedPrefix body;

    KeyWalk(FieldPath path) {
        this.path = path;
    }

    /**
     * Reads the body's JSON document to its end. Nothing after the document is read: no parser
     * takes another value from it. A strict one (JSON.parse, Python's json) refuses the whole body,
     * a streaming one (Go's json.Decoder, Jackson's ObjectMapper) stops at this first value too.
     *
     * @return the key the document's last occurrence gives
     * @throws IOException if the document does not end within the prefix, or is not JSON
     */
    Optional<String> read(JsonFactory json, BodyPrefix prefix) throws IOException {
        body = new WatchedPrefix(prefix.open());
        try (JsonParser parser = json.createParser(body)) {
            value(parser, parser.nextToken(), 0);
        }
        return key;
    }

    /** Whether the parser asked for bytes past the prefix's end: the document did not end within it. */
    boolean ranOut() {
        return body != null && body.ended;
    }

    /**
     * The key the occurrences read so far give. An occurrence whose name was read counts, and
     * replaces the ones before it; if its value was not read to its end, it gives no key.
     */
    Optional<String> keySoFar() {
        return key;
    }

    // Reads the value the parser is on to its end; step is how much of the path leads to it.
    private void value(JsonParser parser, JsonToken token, int step) throws IOException {
        if (step == path.steps().size()) {
            key = keyAt(parser, token);
            return;
        }
        FieldPath.Step next = path.steps().get(step);
        if (token == JsonToken.START_OBJECT) {
            for (JsonToken name = nextName(parser, next); name == JsonToken.FIELD_NAME; name = nextName(parser, next)) {
                boolean wanted = next.name().equals(parser.currentName());
                JsonToken content = inside(parser);
                if (wanted) {
                    key = Optional.empty(); // a later occurrence replaces the key, whatever it holds
                    value(parser, content, step + 1);
                } else {
                    parser.skipChildren(); // iterative in jackson: a deep value cannot overflow the stack
                }
            }
        } else if (token == JsonToken.START_ARRAY && next.index() >= 0) {
            int index = 0;
            for (JsonToken content = inside(parser); content != JsonToken.END_ARRAY; content = inside(parser)) {
                if (index++ == next.index()) {
                    key = Optional.empty();
                    value(parser, content, step + 1);
                } else {
                    parser.skipChildren();
                }
            }
        } else {
            parser.skipChildren();
        }
    }

    // The next field name, or the object's end. Jackson reads a name together with the start of
    // its value: when the body runs out after a wanted name, the name was read and that occurrence
    // counts, with no key. A name the body runs out inside is never seen.
    private JsonToken nextName(JsonParser parser, FieldPath.Step wanted) throws IOException {
        try {
            return inside(parser);
        } catch (IOException cut) {
            if (parser.currentToken() == JsonToken.FIELD_NAME && wanted.name().equals(parser.currentName())) {
                key = Optional.empty();
            }
            throw cut;
        }
    }

    // Jackson reports a body that ends inside an object or array as an error; this makes sure of it,
    // since a document cut short must never be taken for a whole one.
    private static JsonToken inside(JsonParser parser) throws IOException {
        JsonToken token = parser.nextToken();
        if (token == null) {
            throw new EOFException("the body ended inside the document");
        }
        return token;
    }

    private Optional<String> keyAt(JsonParser parser, JsonToken token) throws IOException {
        String text;
        if (token == JsonToken.VALUE_STRING) {
            text = parser.getText(); // reads to the closing quote, or fails
        } else if (token == JsonToken.VALUE_NUMBER_INT || token == JsonToken.VALUE_NUMBER_FLOAT) {
            // A number the body runs out in looks whole ("12" of "123"): jackson had to ask past the
            // prefix to find its end, and only the unread bytes could say whether it went on.
            if (body.ended) {
                return Optional.empty();
            }
            text = NumberKeyText.of(parser.getText());
        } else {
            parser.skipChildren();
            return Optional.empty();
        }
        return text.isBlank() || text.length() > JsonFieldKeyExtractor.MAX_KEY_LENGTH
                ? Optional.empty() : Optional.of(text);
    }

    /** The prefix as the parser reads it, noting when the parser asked for bytes past its end. */
    private static final class WatchedPrefix extends FilterInputStream {

        private boolean ended;

        WatchedPrefix(InputStream prefix) {
            super(prefix);
        }

        @Override
        public int read() throws IOException {
            int b = super.read();
            ended |= b < 0;
            return b;
        }

        @Override
        public int read(byte[] into, int offset, int length) throws IOException {
            int n = super.read(into, offset, length);
            ended |= n < 0;
            return n;
        }
    }
}
