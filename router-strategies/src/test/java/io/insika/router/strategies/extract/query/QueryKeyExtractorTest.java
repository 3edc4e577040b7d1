package io.insika.router.strategies.extract.query;

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

class QueryKeyExtractorTest {

    private final QueryKeyExtractorProvider provider = new QueryKeyExtractorProvider();
    private final KeyExtractor stickyId = provider.create(PluginOptions.of("name", "stickyId"));

    @Test
    void socketIoStickyIdIsTheKey() {
        assertThat(stickyId.extract(request().method("GET").path("/socket.io/")
                .query("EIO", "4").query("transport", "polling").query("stickyId", "a1B2c3D4e5F6g7H8").build()),
                is(Optional.of("a1B2c3D4e5F6g7H8")));
    }

    @Test
    void valueIsTakenAsDecodedWithoutTrimming() {
        assertThat(stickyId.extract(request().query("stickyId", " a b ").build()), is(Optional.of(" a b ")));
    }

    @ParameterizedTest
    @ValueSource(strings = {"", " "})
    void emptyOrBlankValueIsNoKey(String value) {
        assertThat(stickyId.extract(request().query("stickyId", value).build()), is(Optional.empty()));
    }

    @Test
    void nameIsMatchedExactly() {
        assertThat(stickyId.extract(request().query("stickyid", "tok").build()), is(Optional.empty()));
    }

    @Test
    void typeIsQueryAndItNeverNeedsTheBody() {
        assertThat(provider.type(), is("query"));
        assertThat(stickyId.needsBody(), is(false));
    }

    @Test
    void missingNameIsRejected() {
        assertThat(error(Map.of("name", "")),
                is("routes[1].keys[0].name: [] (expected: a query parameter name such as stickyId)"));
    }

    @Test
    void unknownOptionIsRejected() {
        assertThat(error(Map.of("param", "stickyId")),
                is("routes[1].keys[0].param: unknown option (known options: name)"));
    }

    private String error(Map<String, String> options) {
        return assertThrows(PluginConfigException.class,
                () -> provider.create(PluginOptions.of("routes[1].keys[0]", options))).getMessage();
    }
}
