package io.insika.router.server.proxy;

import java.io.ByteArrayOutputStream;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import io.insika.router.server.logging.LogFormat;
import io.insika.router.server.testing.Eventually;
import io.insika.router.server.testing.JsonLine;
import io.insika.router.server.testing.TestProxySettings;

import static io.insika.router.server.proxy.RouterFixture.CLIENT;
import static org.hamcrest.MatcherAssert.assertThat;
import static org.hamcrest.Matchers.containsString;
import static org.hamcrest.Matchers.is;
import static org.hamcrest.Matchers.not;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Every request has one {@code X-Request-Id}: the client's when it is a plain id, else one the
 * router makes. The backend gets it, the client gets it back, and the access log writes it.
 */
class RequestIdTest {

    private static final String ID_FORM = "[0-9a-f]{16}-[0-9a-f]+";

    private final ByteArrayOutputStream log = new ByteArrayOutputStream();
    @RegisterExtension
    final Routers routers = new Routers();
    private RouterFixture router;

    private void start() {
        router = routers.withBackends(1, TestProxySettings.builder().accessLog(log, LogFormat.JSON).build());
    }

    @Test
    void aValidClientIdIsKeptSeenByTheBackendReturnedToTheClientAndLogged() throws Exception {
        start();
        String id = "edge-7f3a9c_01:AZ/x+=";
        HttpResponse<String> answer = get(id);

        assertThat(answer.headers().allValues("X-Request-Id"), is(List.of(id)));
        assertThat(router.backends.get(0).lastHeaders.get("x-request-id"), is(List.of(id)));
        assertThat(loggedIds(), is(List.of(id)));
    }

    @Test
    void withoutAClientIdEachRequestGetsANewOneTheBackendAndTheClientBothSee() throws Exception {
        start();
        HttpResponse<String> first = get(null);
        List<String> seenFirst = router.backends.get(0).lastHeaders.get("x-request-id");
        HttpResponse<String> second = get(null);

        String id = first.headers().firstValue("X-Request-Id").orElseThrow();
        assertTrue(id.matches(ID_FORM), id);
        assertThat(seenFirst, is(List.of(id)));
        assertThat(second.headers().firstValue("X-Request-Id").orElseThrow(), not(id));
        assertThat(loggedIds().get(0), is(id));
    }

    @Test
    void anInvalidClientIdIsReplacedAndNeverRelayed() throws Exception {
        start();
        for (String invalid : List.of("x".repeat(RequestId.MAX_LENGTH + 1), "two words", "a,b", "\"quoted\"")) {
            HttpResponse<String> answer = get(invalid);

            String id = answer.headers().firstValue("X-Request-Id").orElseThrow();
            assertTrue(id.matches(ID_FORM), invalid + " answered with " + id);
            assertThat(router.backends.get(0).lastHeaders.get("x-request-id"), is(List.of(id)));
        }
        assertThat(log.toString(StandardCharsets.UTF_8), not(containsString("two words")));
        assertThat("the longest valid id is kept", get("x".repeat(RequestId.MAX_LENGTH))
                .headers().firstValue("X-Request-Id").orElseThrow(), is("x".repeat(RequestId.MAX_LENGTH)));
    }

    @Test
    void aControlCharacterOrATabInTheClientIdIsReplaced() throws Exception {
        start();
        for (String invalid : List.of("a\tb", "a\u007fb")) {
            String answer = EdgeSafetyTest.rawExchange(router.port(),
                    "GET /studio/x HTTP/1.1\r\nHost: x\r\nX-Request-Id: " + invalid + "\r\nConnection: close\r\n\r\n");
            if (answer.startsWith("HTTP/1.1 200")) {
                assertTrue(answer.matches("(?s).*\r\nX-Request-Id: " + ID_FORM + "\r\n.*"), answer);
                assertThat(router.backends.get(0).lastHeaders.get("x-request-id").get(0), not(invalid));
            } else {
                assertThat(invalid + ": refused as a request, else", answer, org.hamcrest.Matchers.startsWith("HTTP/1.1 400"));
            }
        }
    }

    @Test
    void theRoutersOwnAnswerCarriesTheIdToo() throws Exception {
        start();
        router.pool.update(List.of());
        HttpResponse<String> answer = get("edge-1");

        assertThat(answer.statusCode(), is(503));
        assertThat(answer.headers().allValues("X-Request-Id"), is(List.of("edge-1")));
    }

    private HttpResponse<String> get(String id) throws Exception {
        HttpRequest.Builder request = HttpRequest.newBuilder(router.uri("/studio/x"));
        if (id != null) {
            request.header("X-Request-Id", id);
        }
        return CLIENT.send(request.build(), HttpResponse.BodyHandlers.ofString());
    }

    private List<String> loggedIds() {
        Eventually.await(Duration.ofSeconds(5), () -> log.size() > 0, () -> "no access line");
        return log.toString(StandardCharsets.UTF_8).lines().map(JsonLine::parse).map(fields -> fields.get("request_id"))
                .toList();
    }
}
