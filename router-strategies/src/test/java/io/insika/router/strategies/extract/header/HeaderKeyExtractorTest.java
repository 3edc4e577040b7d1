package io.insika.router.strategies.extract.header;

import java.util.Map;
import java.util.Optional;

import io.insika.router.api.KeyExtractor;
import io.insika.router.api.PluginConfigException;
import io.insika.router.api.PluginOptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import static io.insika.router.strategies.extract.TestRequests.request;
import static org.hamcrest.MatcherAssert.assertThat;
import static org.hamcrest.Matchers.is;
import static org.junit.jupiter.api.Assertions.assertThrows;

class HeaderKeyExtractorTest {

    private final HeaderKeyExtractorProvider provider = new HeaderKeyExtractorProvider();
    private final KeyExtractor route = provider.create(PluginOptions.of("name", "x-sigx-actor-route"));

    @Test
    void headerValueIsTheKey() {
        assertThat(route.extract(request().header("X-Sigx-Actor-Route", "tok-42").build()), is(Optional.of("tok-42")));
    }

    @Test
    void firstOfSeveralValuesWins() {
        assertThat(route.extract(request().header("x-sigx-actor-route", "first")
                .header("x-sigx-actor-route", "second").build()), is(Optional.of("first")));
    }

    @Test
    void surroundingWhitespaceIsTrimmed() {
        assertThat(route.extract(request().header("x-sigx-actor-route", " \ttok \t").build()), is(Optional.of("tok")));
    }

    @ParameterizedTest
    @ValueSource(strings = {"", " ", "\t \t"})
    void blankHeaderIsNoKey(String value) {
        assertThat(route.extract(request().header("x-sigx-actor-route", value).build()), is(Optional.empty()));
    }

    @Test
    void absentHeaderIsNoKey() {
        assertThat(route.extract(request().header("x-other", "tok").build()), is(Optional.empty()));
    }

    @Test
    void typeIsHeaderAndItNeverNeedsTheBody() {
        assertThat(provider.type(), is("header"));
        assertThat(route.needsBody(), is(false));
    }

    @Test
    void missingNameIsRejected() {
        assertThat(error(Map.of()), is("routes[0].keys[0].name: [] (expected: a header name such as x-sigx-actor-route)"));
    }

    @ParameterizedTest
    @ValueSource(strings = {"x sigx", "x-route:", "x\u00e9", "(x)"})
    void nameThatIsNotAHeaderNameIsRejected(String name) {
        assertThat(error(Map.of("name", name)),
                is("routes[0].keys[0].name: [" + name + "] (expected: a header name such as x-sigx-actor-route)"));
    }

    @Test
    void unknownOptionIsRejected() {
        assertThat(error(Map.of("name", "x", "header", "y")),
                is("routes[0].keys[0].header: unknown option (known options: name)"));
    }

    private String error(Map<String, String> options) {
        return assertThrows(PluginConfigException.class,
                () -> provider.create(PluginOptions.of("routes[0].keys[0]", options))).getMessage();
    }
}
