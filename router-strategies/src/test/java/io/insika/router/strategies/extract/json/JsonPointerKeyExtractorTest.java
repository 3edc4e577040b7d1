package io.insika.router.strategies.extract.json;

import java.util.Optional;

import io.insika.router.api.KeyExtractor;
import io.insika.router.api.PluginOptions;
import org.junit.jupiter.api.Test;

import static io.insika.router.strategies.extract.TestRequests.jsonBody;
import static org.hamcrest.MatcherAssert.assertThat;
import static org.hamcrest.Matchers.is;

class JsonPointerKeyExtractorTest {

    @Test
    void pointerFindsANestedField() {
        assertThat(pointer("/session/id").extract(jsonBody("{\"v\":1,\"session\":{\"id\":\"s-1\"}}")),
                is(Optional.of("s-1")));
    }

    @Test
    void pointerMatchesOnlyTheExactPath() {
        String body = "{\"id\":\"top\",\"session\":{\"meta\":{\"id\":\"deeper\"},\"id\":\"exact\"}}";
        assertThat(pointer("/session/id").extract(jsonBody(body)), is(Optional.of("exact")));
    }

    @Test
    void pointerEscapesNameSlashAndTilde() {
        String body = "{\"a/b\":{\"c~d\":\"k\"},\"a\":{\"b\":{\"c~d\":\"wrong\"}}}";
        assertThat(pointer("/a~1b/c~0d").extract(jsonBody(body)), is(Optional.of("k")));
    }

    @Test
    void tildeZeroOneIsATildeFollowedByOne() {
        assertThat(pointer("/~01").extract(jsonBody("{\"/\":\"wrong\",\"~1\":\"k\"}")), is(Optional.of("k")));
    }

    @Test
    void numericTokenIndexesAnArray() {
        String body = "{\"items\":[{\"id\":\"a\"},[\"skip\",{}],{\"id\":\"c\"}]}";
        assertThat(pointer("/items/2/id").extract(jsonBody(body)), is(Optional.of("c")));
    }

    @Test
    void lastOccurrenceWinsAtEveryLevelOfThePath() {
        String body = "{\"session\":{\"id\":\"a\"},\"session\":{\"id\":\"b\",\"id\":\"c\"}}";
        assertThat(pointer("/session/id").extract(jsonBody(body)), is(Optional.of("c")));
    }

    @Test
    void laterOuterObjectWithoutTheFieldLeavesNoKey() {
        assertThat(pointer("/session/id").extract(jsonBody("{\"session\":{\"id\":\"a\"},\"session\":{}}")),
                is(Optional.empty()));
    }

    @Test
    void indexPastTheEndOfTheArrayIsNoKey() {
        assertThat(pointer("/items/3").extract(jsonBody("{\"items\":[\"a\",\"b\"]}")), is(Optional.empty()));
    }

    @Test
    void indexWithALeadingZeroOrDashNamesNoElement() {
        assertThat(pointer("/items/01").extract(jsonBody("{\"items\":[\"a\",\"b\"]}")), is(Optional.empty()));
        assertThat(pointer("/items/-").extract(jsonBody("{\"items\":[\"a\",\"b\"]}")), is(Optional.empty()));
    }

    @Test
    void numericTokenNamesAFieldOfAnObject() {
        assertThat(pointer("/7").extract(jsonBody("{\"7\":\"k\"}")), is(Optional.of("k")));
    }

    @Test
    void pointerMayStartInATopLevelArray() {
        assertThat(pointer("/0/user").extract(jsonBody("[{\"user\":\"alice\"}]")), is(Optional.of("alice")));
    }

    @Test
    void fieldOptionNeverIndexesAnArray() {
        KeyExtractor field = new JsonFieldKeyExtractorProvider().create(PluginOptions.of("field", "0"));
        assertThat(field.extract(jsonBody("[\"alice\"]")), is(Optional.empty()));
    }

    @Test
    void slashAloneNamesTheEmptyField() {
        assertThat(pointer("/").extract(jsonBody("{\"\":\"k\"}")), is(Optional.of("k")));
    }

    @Test
    void pointerToAContainerIsNoKey() {
        assertThat(pointer("/session").extract(jsonBody("{\"session\":{\"id\":\"s\"}}")), is(Optional.empty()));
    }

    @Test
    void pathThatStopsHalfwayIsNoKey() {
        assertThat(pointer("/session/id").extract(jsonBody("{\"session\":\"flat\"}")), is(Optional.empty()));
        assertThat(pointer("/session/id").extract(jsonBody("{\"session\":{\"other\":1}}")), is(Optional.empty()));
    }

    @Test
    void nestedNumberIsTheKeyAsJavaScriptWritesIt() {
        assertThat(pointer("/a/b").extract(jsonBody("{\"a\":{\"b\":-1.0e-2}}")), is(Optional.of("-0.01")));
    }

    @Test
    void pointerAtTheDepthLimitStillMatches() {
        int depth = JsonFieldKeyExtractor.MAX_NESTING_DEPTH;
        String body = "{\"a\":".repeat(depth) + "\"deep\"" + "}".repeat(depth);
        assertThat(pointer("/a".repeat(depth)).extract(jsonBody(body)), is(Optional.of("deep")));
    }

    private static KeyExtractor pointer(String pointer) {
        return new JsonFieldKeyExtractorProvider().create(PluginOptions.of("pointer", pointer));
    }
}
