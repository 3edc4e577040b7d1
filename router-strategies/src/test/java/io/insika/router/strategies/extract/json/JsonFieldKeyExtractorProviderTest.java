package io.insika.router.strategies.extract.json;

import java.util.Map;

import io.insika.router.api.PluginConfigException;
import io.insika.router.api.PluginOptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import static org.hamcrest.MatcherAssert.assertThat;
import static org.hamcrest.Matchers.is;
import static org.junit.jupiter.api.Assertions.assertThrows;

class JsonFieldKeyExtractorProviderTest {

    private static final String AT = "routes[0].keys[0]";

    private final JsonFieldKeyExtractorProvider provider = new JsonFieldKeyExtractorProvider();

    @Test
    void typeIsJsonField() {
        assertThat(provider.type(), is("json-field"));
    }

    @Test
    void neitherFieldNorPointerIsRejected() {
        assertThat(error(Map.of()), is(AT + ".field: [] (expected: a top-level field name such as user,"
                + " or a pointer such as /session/id)"));
    }

    @Test
    void blankFieldIsRejected() {
        assertThat(error(Map.of("field", " ")), is(AT + ".field: [ ] (expected: a top-level field name such as user,"
                + " or a pointer such as /session/id)"));
    }

    @Test
    void fieldAndPointerTogetherAreRejected() {
        assertThat(error(Map.of("field", "user", "pointer", "/user")),
                is(AT + ".pointer: [/user] (expected: either field or pointer, not both)"));
    }

    @Test
    void unknownOptionIsRejected() {
        assertThat(error(Map.of("feild", "user")),
                is(AT + ".feild: unknown option (known options: field, pointer)"));
    }

    @ParameterizedTest
    @ValueSource(strings = {"", "session/id", "/a~2b", "/a~", "/~/x"})
    void malformedPointerIsRejected(String pointer) {
        assertThat(error(Map.of("pointer", pointer)), is(AT + ".pointer: [" + pointer + "] (expected: a JSON Pointer"
                + " (RFC 6901) such as /session/id, at most 128 levels, with ~ written ~0 and / written ~1)"));
    }

    @Test
    void pointerDeeperThanTheNestingLimitIsRejected() {
        String pointer = "/a".repeat(JsonFieldKeyExtractor.MAX_NESTING_DEPTH + 1);
        assertThat(error(Map.of("pointer", pointer)), is(AT + ".pointer: [" + pointer + "] (expected: a JSON Pointer"
                + " (RFC 6901) such as /session/id, at most 128 levels, with ~ written ~0 and / written ~1)"));
    }

    private String error(Map<String, String> options) {
        return assertThrows(PluginConfigException.class, () -> provider.create(PluginOptions.of(AT, options)))
                .getMessage();
    }
}
