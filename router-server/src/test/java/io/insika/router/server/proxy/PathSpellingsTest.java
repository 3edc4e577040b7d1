package io.insika.router.server.proxy;

import java.io.OutputStream;
import java.net.InetAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.List;

import io.insika.router.server.testing.Http1Messages;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import static org.hamcrest.MatcherAssert.assertThat;
import static org.hamcrest.Matchers.is;

/**
 * Issue 26, item 5: one resource, many spellings. A keyed request reaches its key's owner
 * however its path is spelled, and its backend is sent the path in the normal form the route
 * matched. Real backends on loopback, a raw socket in front so every spelling goes as written.
 */
class PathSpellingsTest {

    @ParameterizedTest(name = "{0} is sent as {1}")
    @CsvSource({
            "/v1/responses/, /v1/responses/",
            "//v1/responses, /v1/responses",
            "/v1//responses, /v1/responses",
            "/./v1/responses, /v1/responses",
            "/v1/x/../responses, /v1/responses",
            "/%761/%72esponses, /v1/responses",
            "/v1/responses/., /v1/responses/"})
    void everySpellingOfAKeyedPathReachesTheKeysOwnerAndIsSentInNormalForm(String spelling, String sent)
            throws Exception {
        try (RouterFixture router = RouterFixture.withBackends(3, ProxySettings.DEFAULTS)) {
            TestBackend owner = router.backendOf(router.ownerOf("alice"));
            String body = "{\"user\":\"alice\"}";

            // three in a row: round-robin would have sent at least two elsewhere
            for (int i = 0; i < 3; i++) {
                Http1Messages.Message answer = raw(router.port(), "POST " + spelling + " HTTP/1.1\r\nHost: r\r\n"
                        + "Content-Type: application/json\r\nContent-Length: " + body.length()
                        + "\r\nConnection: close\r\n\r\n" + body);

                assertThat(answer.values("x-backend"), is(List.of(owner.name)));
                assertThat(owner.lastRawPath, is(sent));
            }
        }
    }

    @Test
    void theQueryGoesAsSentBesideANormalizedPath() throws Exception {
        try (RouterFixture router = RouterFixture.withBackends(1, ProxySettings.DEFAULTS)) {
            raw(router.port(), "GET //studio/./a%2Fb/%7e?x=%2e%2E/&y=//z HTTP/1.1\r\nHost: r\r\nConnection: close\r\n\r\n");

            TestBackend backend = router.backends.getFirst();
            assertThat(backend.lastRawPath, is("/studio/a%2Fb/~"));
            assertThat(backend.lastRawQuery, is("x=%2e%2E/&y=//z"));
        }
    }

    private static Http1Messages.Message raw(int port, String request) throws Exception {
        try (Socket socket = new Socket(InetAddress.getLoopbackAddress(), port)) {
            socket.setSoTimeout(10_000);
            OutputStream out = socket.getOutputStream();
            out.write(request.getBytes(StandardCharsets.ISO_8859_1));
            out.flush();
            byte[] bytes = socket.getInputStream().readAllBytes();
            return Http1Messages.responses(bytes, false, request.substring(0, request.indexOf(' ')))
                    .messages().getFirst();
        }
    }
}
