package io.insika.router.strategies.extract.json;

import java.util.Optional;
import java.util.Set;

import io.insika.router.api.KeyExtractor;
import io.insika.router.api.KeyExtractorProvider;
import io.insika.router.api.PluginOptions;

/**
 * {@code json-field}: the key is a string or number in the JSON body, named either by a top-level
 * {@code field} or by a JSON Pointer ({@code pointer}, RFC 6901) for a nested one.
 *
 * <p>Decisions, documented in {@code docs/plugins.md}: the field is read as JSON.parse and Python's
 * json read it, so the last occurrence wins at every level; of a document longer than
 * {@code body-max-bytes}, the last occurrence within the cap wins, and one whose value the cap
 * cuts gives no key; a number is its value written as JavaScript writes it ({@code 1.5e3} is
 * {@code 1500}); {@code null}, booleans, objects, arrays, empty or blank
 * strings and values longer than {@value JsonFieldKeyExtractor#MAX_KEY_LENGTH} chars are no key; a
 * body nested deeper than {@value JsonFieldKeyExtractor#MAX_NESTING_DEPTH} levels is no key.
 */
public final class JsonFieldKeyExtractorProvider implements KeyExtractorProvider {

    /** The type written in YAML. */
    public static final String TYPE = "json-field";

    private static final String POINTER_EXPECTED = "a JSON Pointer (RFC 6901) such as /session/id, at most "
            + JsonFieldKeyExtractor.MAX_NESTING_DEPTH + " levels, with ~ written ~0 and / written ~1";

    @Override
    public String type() {
        return TYPE;
    }

    @Override
    public KeyExtractor create(PluginOptions options) {
        options.requireOnly(Set.of("field", "pointer"));
        Optional<String> field = options.get("field");
        Optional<String> pointer = options.get("pointer");
        if (field.isPresent() && pointer.isPresent()) {
            throw options.invalid("pointer", pointer.get(), "either field or pointer, not both");
        }
        if (pointer.isPresent()) {
            return new JsonFieldKeyExtractor(parsePointer(options, pointer.get()));
        }
        String name = options.required("field", "a top-level field name such as user, or a pointer such as /session/id");
        return new JsonFieldKeyExtractor(FieldPath.field(name));
    }

    private static FieldPath parsePointer(PluginOptions options, String pointer) {
        FieldPath path;
        try {
            path = FieldPath.pointer(pointer);
        } catch (IllegalArgumentException malformed) {
            throw options.invalid("pointer", pointer, POINTER_EXPECTED);
        }
        if (path.steps().size() > JsonFieldKeyExtractor.MAX_NESTING_DEPTH) {
            throw options.invalid("pointer", pointer, POINTER_EXPECTED);
        }
        return path;
    }
}
