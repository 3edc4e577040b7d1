package io.insika.router.api;

import java.util.List;
import java.util.Map;
import java.util.Optional;

import org.junit.jupiter.api.Test;

import static org.hamcrest.MatcherAssert.assertThat;
import static org.hamcrest.Matchers.is;
import static org.junit.jupiter.api.Assertions.assertThrows;

class PathTemplateTest {

    @Test
    void capturesNamedSegmentsDecoded() {
        PathTemplate template = PathTemplate.parse("/channels/{id}/messages");
        assertThat(template.match("/channels/ab%20c/messages"), is(Optional.of(Map.of("id", "ab c"))));
        assertThat(template.match("/channels/a+b/messages"), is(Optional.of(Map.of("id", "a+b"))));
        assertThat(template.parameterNames(), is(List.of("id")));
    }

    @Test
    void literalSegmentsMustMatchExactly() {
        PathTemplate template = PathTemplate.parse("/channels/{id}/messages");
        assertThat(template.matches("/channels/1/events"), is(false));
        assertThat(template.matches("/channels/1/messages/x"), is(false));
        assertThat(template.matches("/channels//messages"), is(false));
        assertThat(template.matches("/Channels/1/messages"), is(false));
        assertThat(template.matches("channels/1/messages"), is(false));
        assertThat(PathTemplate.parse("/mcp").matches("/mcpx"), is(false));
        assertThat(PathTemplate.parse("/mcp").matches("/mc"), is(false));
        assertThat(PathTemplate.parse("/v1/responses").matches("/v1"), is(false));
        assertThat(PathTemplate.parse("/v1/responses").matches("/v1/responses/x"), is(false));
    }

    @Test
    void trailingStarMatchesTheRestOfThePath() {
        PathTemplate template = PathTemplate.parse("/r/{token}/*");
        assertThat(template.match("/r/t0k/Counter%23inc"), is(Optional.of(Map.of("token", "t0k"))));
        assertThat(template.match("/r/t0k"), is(Optional.of(Map.of("token", "t0k"))));
        assertThat(PathTemplate.parse("/*").matches("/"), is(true));
        assertThat(PathTemplate.parse("/*").matches("/any/thing"), is(true));
        assertThat(PathTemplate.parse("/studio/*").matches("/studiox"), is(false));
    }

    @Test
    void oneTrailingSlashOfThePathOrTheTemplateMakesNoDifference() {
        assertThat(PathTemplate.parse("/mcp").matches("/mcp/"), is(true));
        assertThat(PathTemplate.parse("/mcp/").matches("/mcp"), is(true));
        assertThat(PathTemplate.parse("/mcp/").matches("/mcp/"), is(true));
        assertThat(PathTemplate.parse("/users/{id}").match("/users/42/"), is(Optional.of(Map.of("id", "42"))));
        assertThat(PathTemplate.parse("/users/{id}").matches("/users/"), is(false));
        assertThat(PathTemplate.parse("/mcp").matches("/mcp//"), is(false));
        assertThat(PathTemplate.parse("/").matches("/"), is(true));
        assertThat(PathTemplate.parse("/").matches("/mcp"), is(false));
        assertThat(PathTemplate.parse("/").matches("//"), is(true));
        assertThat(PathTemplate.parse("/a/*").match("/a//"), is(Optional.of(Map.of())));
    }

    @Test
    void innerStarMatchesOneSegment() {
        PathTemplate template = PathTemplate.parse("/a/*/c");
        assertThat(template.matches("/a/b/c"), is(true));
        assertThat(template.matches("/a/b/b/c"), is(false));
    }

    @Test
    void malformedEscapesAreCapturedAsSent() {
        assertThat(PathTemplate.parse("/x/{id}").match("/x/%zz%"), is(Optional.of(Map.of("id", "%zz%"))));
    }

    @Test
    void malformedTemplatesAreRejected() {
        for (String bad : new String[] {"channels/{id}", "/a/{}", "/a/x{id}", "/a/{id}/{id}", "/a/{i{d}"}) {
            assertThrows(IllegalArgumentException.class, () -> PathTemplate.parse(bad), bad);
        }
    }
}
