package io.insika.router.strategies.extract.cookie;

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

class CookieKeyExtractorTest {

    private final CookieKeyExtractorProvider provider = new CookieKeyExtractorProvider();
    private final KeyExtractor session = provider.create(PluginOptions.of("name", "session"));

    @Test
    void cookieValueIsTheKey() {
        assertThat(session.extract(request().cookie("theme", "dark").cookie("session", "s-77").build()),
                is(Optional.of("s-77")));
    }

    @ParameterizedTest
    @ValueSource(strings = {"", "  "})
    void emptyOrBlankCookieIsNoKey(String value) {
        assertThat(session.extract(request().cookie("session", value).build()), is(Optional.empty()));
    }

    @Test
    void absentCookieIsNoKey() {
        assertThat(session.extract(request().cookie("Session", "s-77").build()), is(Optional.empty()));
    }

    @Test
    void typeIsCookieAndItNeverNeedsTheBody() {
        assertThat(provider.type(), is("cookie"));
        assertThat(session.needsBody(), is(false));
    }

    @ParameterizedTest
    @ValueSource(strings = {"a=b", "my session", "a;b"})
    void nameThatIsNotACookieNameIsRejected(String name) {
        assertThat(error(Map.of("name", name)),
                is("routes[0].keys[1].name: [" + name + "] (expected: a cookie name such as session)"));
    }

    @Test
    void missingNameIsRejected() {
        assertThat(error(Map.of()), is("routes[0].keys[1].name: [] (expected: a cookie name such as session)"));
    }

    private String error(Map<String, String> options) {
        return assertThrows(PluginConfigException.class,
                () -> provider.create(PluginOptions.of("routes[0].keys[1]", options))).getMessage();
    }
}
