package io.insika.router.server.proxy;

import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.List;
import java.util.stream.Stream;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

import static io.insika.router.server.proxy.RouterFixture.CLIENT;
import static org.hamcrest.MatcherAssert.assertThat;
import static org.hamcrest.Matchers.is;

/** Whatever a client sends on a keyed route reaches a backend intact; the router never answers 5xx. */
class BadInputTest {

    private static List<TestBackend> backends;
    private static RouterFixture router;

    @BeforeAll
    static void start() {
        backends = List.of(TestBackend.start("a"), TestBackend.start("b"));
        router = RouterFixture.start(backends);
    }

    @AfterAll
    static void stop() {
        router.close();
        backends.forEach(TestBackend::close);
    }

    static Stream<Arguments> hostileBodies() {
        byte[] deep = new byte[200_000];
        Arrays.fill(deep, 0, 100_000, (byte) '[');
        Arrays.fill(deep, 100_000, 200_000, (byte) ']');
        byte[] hugeString = new byte[1_048_576];
        Arrays.fill(hugeString, (byte) 'a');
        byte[] hugeValue = concat("{\"blob\":\"", hugeString, "\",\"user\":\"late\"}");
        byte[] invalidUtf8 = concat("{\"user\":\"", new byte[] {(byte) 0xC3, (byte) 0x28, (byte) 0xFF}, "\"}");
        byte[] deepObject = new byte[150_000];
        for (int i = 0; i < 30_000; i++) {
            System.arraycopy("{\"a\":".getBytes(StandardCharsets.US_ASCII), 0, deepObject, i * 5, 5);
        }
        return Stream.of(
                Arguments.of("malformed JSON", "application/json", bytes("{\"user\": \"x\"")),
                Arguments.of("unquoted garbage", "application/json", bytes("{user: sess}")),
                Arguments.of("not JSON at all", "text/plain", bytes("user=sess-1&x=2")),
                Arguments.of("a JSON array", "application/json", bytes("[{\"user\":\"sess-1\"}]")),
                Arguments.of("deeply nested arrays", "application/json", deep),
                Arguments.of("deeply nested objects", "application/json", deepObject),
                Arguments.of("a huge string value", "application/json", hugeValue),
                Arguments.of("invalid UTF-8", "application/json", invalidUtf8),
                Arguments.of("binary", "application/octet-stream", new byte[] {0, 1, 2, (byte) 0xFE, (byte) 0xFF}),
                Arguments.of("user is null", "application/json", bytes("{\"user\":null}")),
                Arguments.of("user is an object", "application/json", bytes("{\"user\":{\"id\":1}}")));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("hostileBodies")
    void hostileBodiesAreForwardedIntactAndNeverAnswered5xx(String what, String contentType, byte[] body)
            throws Exception {
        for (String path : List.of("/v1/responses", "/channels/c1/messages")) {
            HttpResponse<String> response = CLIENT.send(HttpRequest.newBuilder(router.uri(path))
                            .header("Content-Type", contentType)
                            .POST(HttpRequest.BodyPublishers.ofByteArray(body))
                            .build(),
                    HttpResponse.BodyHandlers.ofString());
            assertThat(what, response.statusCode(), is(200));
            String[] answer = response.body().split(" ");
            assertThat(what, answer[1], is(String.valueOf(body.length)));
            assertThat(what, answer[2], is(TestBackend.sha256Hex(body)));
        }
    }

    private static byte[] bytes(String text) {
        return text.getBytes(StandardCharsets.UTF_8);
    }

    private static byte[] concat(String head, byte[] middle, String tail) {
        byte[] start = bytes(head);
        byte[] end = bytes(tail);
        byte[] all = new byte[start.length + middle.length + end.length];
        System.arraycopy(start, 0, all, 0, start.length);
        System.arraycopy(middle, 0, all, start.length, middle.length);
        System.arraycopy(end, 0, all, start.length + middle.length, end.length);
        return all;
    }
}
