package io.insika.router.strategies.extract.json;

import java.util.Optional;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.StreamReadConstraints;
import com.fasterxml.jackson.core.StreamReadFeature;
import com.fasterxml.jackson.core.exc.StreamConstraintsException;
import com.fasterxml.jackson.core.util.JsonRecyclerPools;

import io.insika.router.api.KeyExtractor;
import io.insika.router.api.RequestView;

/**
 * Reads the key from a JSON body with jackson's streaming parser, the way the common parsers
 * (JSON.parse, Python's json, Go, Jackson databind) read the field: the last occurrence wins at
 * every level of the path. So the document is walked to its end, other values skipped without
 * being built. A document longer than the body prefix is read to the prefix's end: the last
 * occurrence within it wins, as a later one cannot be seen, and an occurrence whose value the
 * prefix cuts gives no key.
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
        KeyWalk walk = new KeyWalk(path);
        try {
            return walk.read(JSON, request.body());
        } catch (StreamConstraintsException tooLongOrTooDeep) {
            return Optional.empty(); // met within the prefix: no key, as in a whole document
        } catch (Exception unreadable) {
            // The cap cut the document and the body goes on: what follows the cap cannot be seen, so
            // the last occurrence within the cap is the key. Malformed JSON, a body that ended
            // before its document did, bad UTF-8 or a failing stream: no key.
            return walk.ranOut() && request.body().exceedsLimit() ? walk.keySoFar() : Optional.empty();
        }
    }

    @Override
    public boolean needsBody() {
        return true;
    }
}
