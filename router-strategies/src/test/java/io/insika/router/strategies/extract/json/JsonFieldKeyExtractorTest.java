package io.insika.router.strategies.extract.json;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;

import io.insika.router.api.KeyExtractor;
import io.insika.router.api.PluginOptions;
import io.insika.router.strategies.extract.TestRequests;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

import static io.insika.router.strategies.extract.TestRequests.jsonBody;
import static org.hamcrest.MatcherAssert.assertThat;
import static org.hamcrest.Matchers.is;

class JsonFieldKeyExtractorTest {

    private final KeyExtractor user = new JsonFieldKeyExtractorProvider().create(PluginOptions.of("field", "user"));

    @Test
    void topLevelStringFieldIsTheKey() {
        assertThat(user.extract(jsonBody("{\"model\":\"m\",\"user\":\"alice\",\"input\":[1,2]}")),
                is(Optional.of("alice")));
    }

    @ParameterizedTest
    @CsvSource({"42, 42", "-7, -7", "1.5e3, 1500", "1.5E+3, 1500", "0.25, 0.25", "1.0, 1", "-0, 0",
            "12345678901234567890123, 1.2345678901234568e+22", "1e21, 1e+21", "1e-7, 1e-7"})
    void numberValueIsTheKeyAsJavaScriptWritesIt(String number, String key) {
        assertThat(user.extract(jsonBody("{\"user\":" + number + "}")), is(Optional.of(key)));
    }

    @Test
    void fieldOfTheSameNameInsideANestedObjectDoesNotMatch() {
        assertThat(user.extract(jsonBody("{\"meta\":{\"user\":\"bob\"},\"items\":[{\"user\":\"carol\"}]}")),
                is(Optional.empty()));
    }

    @Test
    void topLevelFieldIsFoundAfterNestedOnesOfTheSameName() {
        assertThat(user.extract(jsonBody("{\"meta\":{\"user\":\"bob\"},\"user\":\"alice\"}")),
                is(Optional.of("alice")));
    }

    @Test
    void lastOccurrenceOfADuplicatedFieldWins() {
        assertThat(user.extract(jsonBody("{\"user\":\"first\",\"user\":\"second\"}")), is(Optional.of("second")));
    }

    @Test
    void lastOccurrenceWinsEvenWhenItCarriesNoKey() {
        assertThat(user.extract(jsonBody("{\"user\":\"first\",\"user\":null}")), is(Optional.empty()));
    }

    @ParameterizedTest
    @ValueSource(strings = {"null", "true", "false", "{}", "{\"id\":\"a\"}", "[]", "[\"a\"]"})
    void nonScalarOrNonTextValueIsNoKey(String value) {
        assertThat(user.extract(jsonBody("{\"user\":" + value + "}")), is(Optional.empty()));
    }

    @ParameterizedTest
    @ValueSource(strings = {"", " ", "\\t\\n"})
    void emptyOrBlankStringIsNoKey(String value) {
        assertThat(user.extract(jsonBody("{\"user\":\"" + value + "\"}")), is(Optional.empty()));
    }

    @Test
    void stringKeyIsTakenVerbatimWithEscapesDecoded() {
        assertThat(user.extract(jsonBody("{\"user\":\" caf\\u00e9 \\\"x\\\" 日本 \"}")),
                is(Optional.of(" café \"x\" 日本 ")));
    }

    @Test
    void missingFieldIsNoKey() {
        assertThat(user.extract(jsonBody("{\"model\":\"m\"}")), is(Optional.empty()));
    }

    @Test
    void keyOfTheMaximumLengthIsAccepted() {
        String key = "k".repeat(JsonFieldKeyExtractor.MAX_KEY_LENGTH);
        assertThat(user.extract(jsonBody("{\"user\":\"" + key + "\"}")), is(Optional.of(key)));
    }

    @Test
    void keyLongerThanTheMaximumIsNoKey() {
        String key = "k".repeat(JsonFieldKeyExtractor.MAX_KEY_LENGTH + 1);
        assertThat(user.extract(jsonBody("{\"user\":\"" + key + "\"}")), is(Optional.empty()));
    }

    @Test
    void readsTheWholeDocumentEvenWhenTheKeyComesFirst() {
        byte[] body = ("{\"user\":\"alice\",\"blob\":\"" + "x".repeat(1 << 20) + "\"}").getBytes(StandardCharsets.UTF_8);
        TestRequests request = TestRequests.request().body(body, body.length);

        Optional<String> key = user.extract(request.build());

        assertThat(key, is(Optional.of("alice")));
        assertThat(request.bodyPrefix().pulled(), is(body.length));
    }

    @Test
    void jsonFieldNeedsTheBody() {
        assertThat(user.needsBody(), is(true));
    }

    @Test
    void oneExtractorServesConcurrentRequests() throws Exception {
        ExecutorService pool = Executors.newFixedThreadPool(8);
        try {
            List<Future<Boolean>> results = new ArrayList<>();
            for (int t = 0; t < 8; t++) {
                int thread = t;
                results.add(pool.submit(() -> {
                    for (int i = 0; i < 2_000; i++) {
                        String key = "u" + thread + "-" + i;
                        String padding = "p".repeat(i * 7 % 20_000);
                        if (!user.extract(jsonBody("{\"pad\":\"" + padding + "\",\"user\":\"" + key + "\"}"))
                                .equals(Optional.of(key))) {
                            return false;
                        }
                    }
                    return true;
                }));
            }
            for (Future<Boolean> result : results) {
                assertThat(result.get(), is(true));
            }
        } finally {
            pool.shutdownNow();
        }
    }
}
