package io.insika.router.strategies.extract.path;

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

class PathSegmentKeyExtractorTest {

    private final PathSegmentKeyExtractorProvider provider = new PathSegmentKeyExtractorProvider();
    private final KeyExtractor token = provider.create(
            PluginOptions.of("template", "/_sigx/actor/r/{token}/*", "parameter", "token"));

    @Test
    void routeParameterIsTheKey() {
        KeyExtractor channel = provider.create(PluginOptions.of("parameter", "id"));
        assertThat(channel.extract(request().path("/channels/c-9/messages").pathParameter("id", "c-9").build()),
                is(Optional.of("c-9")));
    }

    @Test
    void routeWithoutThatParameterGivesNoKey() {
        KeyExtractor channel = provider.create(PluginOptions.of("parameter", "id"));
        assertThat(channel.extract(request().path("/channels").build()), is(Optional.empty()));
    }

    @Test
    void ownTemplateCapturesTheTokenFromTheRawPath() {
        assertThat(token.extract(request().path("/_sigx/actor/r/h4sh/Counter%23inc").build()), is(Optional.of("h4sh")));
    }

    @Test
    void capturedTokenIsPercentDecoded() {
        assertThat(token.extract(request().path("/_sigx/actor/r/a%2Fb%20c/Counter%23inc").build()),
                is(Optional.of("a/b c")));
    }

    @ParameterizedTest
    @ValueSource(strings = {"/_sigx/actor/Counter%23inc", "/_sigx/actor/r//Counter%23inc", "/other/r/t/x", "", "r/t/x"})
    void pathTheTemplateDoesNotMatchIsNoKey(String path) {
        assertThat(token.extract(request().path(path).build()), is(Optional.empty()));
    }

    @Test
    void blankSegmentIsNoKey() {
        assertThat(token.extract(request().path("/_sigx/actor/r/%20/Counter%23inc").build()), is(Optional.empty()));
    }

    @Test
    void typeIsPathSegmentAndItNeverNeedsTheBody() {
        assertThat(provider.type(), is("path-segment"));
        assertThat(token.needsBody(), is(false));
    }

    @Test
    void missingParameterIsRejected() {
        assertThat(error(Map.of("template", "/r/{token}/*")),
                is("routes[3].keys[0].parameter: [] (expected: the name of a path parameter such as token)"));
    }

    @Test
    void parameterTheTemplateDoesNotCaptureIsRejected() {
        assertThat(error(Map.of("template", "/r/{token}/{method}", "parameter", "id")),
                is("routes[3].keys[0].parameter: [id] (expected: a parameter of the template: token, method)"));
    }

    @Test
    void templateWithoutParametersIsRejected() {
        assertThat(error(Map.of("template", "/r/*", "parameter", "token")),
                is("routes[3].keys[0].parameter: [token] (expected: a parameter of the template, which captures none)"));
    }

    @ParameterizedTest
    @ValueSource(strings = {"r/{token}", "/r/x{token}/", "/r/{token}/{token}", "/r/{}/x", ""})
    void malformedTemplateIsRejected(String template) {
        assertThat(error(Map.of("template", template, "parameter", "token")),
                is("routes[3].keys[0].template: [" + template + "] (expected: a path template starting with /,"
                        + " whose parameters are whole, uniquely named segments, such as /_sigx/actor/r/{token}/*)"));
    }

    @Test
    void unknownOptionIsRejected() {
        assertThat(error(Map.of("parameter", "id", "segment", "2")),
                is("routes[3].keys[0].segment: unknown option (known options: parameter, template)"));
    }

    private String error(Map<String, String> options) {
        return assertThrows(PluginConfigException.class,
                () -> provider.create(PluginOptions.of("routes[3].keys[0]", options))).getMessage();
    }
}
