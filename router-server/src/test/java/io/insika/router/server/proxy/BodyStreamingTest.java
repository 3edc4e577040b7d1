package io.insika.router.server.proxy;

import java.io.BufferedReader;
import java.io.ByteArrayInputStream;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.List;
import java.util.stream.Stream;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

import static io.insika.router.server.proxy.RouterFixture.CLIENT;
import static org.hamcrest.MatcherAssert.assertThat;
import static org.hamcrest.Matchers.is;

class BodyStreamingTest {

    private static final int CAP = 262_144;
    private static List<TestBackend> backends;
    private static RouterFixture router;

    @BeforeAll
    static void start() {
        backends = List.of(TestBackend.start("a"), TestBackend.start("b"), TestBackend.start("c"));
        router = RouterFixture.start(backends);
    }

    @AfterAll
    static void stop() {
        router.close();
        backends.forEach(TestBackend::close);
    }

    static Stream<Arguments> bodies() {
        return Stream.of(0, 1024, 10 * 1024 * 1024).flatMap(size -> Stream.of(true, false).flatMap(
                chunked -> Stream.of(true, false).map(keyFirst -> Arguments.of(size, chunked, keyFirst))));
    }

    @ParameterizedTest(name = "{0} bytes, chunked={1}, keyFirst={2}")
    @MethodSource("bodies")
    void bodiesArriveByteForByte(int size, boolean chunked, boolean keyFirst) throws Exception {
        byte[] body = size == 0 ? new byte[0] : json(size, keyFirst ? "sized-session" : null);
        HttpResponse<String> response = post("/v1/responses", body, chunked);
        assertThat(response.statusCode(), is(200));
        String[] answer = response.body().split(" ");
        assertThat(answer[1], is(String.valueOf(body.length)));
        assertThat(answer[2], is(TestBackend.sha256Hex(body)));
        if (keyFirst && size > 0) {
            assertThat(answer[0], is(nameOf("sized-session")));
        }
    }

    // Better than the seed: a body longer than the cap is still routed by a key found within it.
    @Test
    void aBodyOverTheCapIsRoutedByAKeyWithinTheCap() throws Exception {
        for (int s = 0; s < 12; s++) {
            String key = "big-" + s;
            byte[] body = json(CAP * 3, key);
            HttpResponse<String> response = post("/v1/messages", body, s % 2 == 0);
            String[] answer = response.body().split(" ");
            assertThat(answer[0], is(nameOf(key)));
            assertThat(answer[2], is(TestBackend.sha256Hex(body)));
        }
    }

    @Test
    void aKeyBeyondTheCapRoundRobinsAndTheBodyArrivesIntact() throws Exception {
        byte[] padding = new byte[CAP + 10];
        Arrays.fill(padding, (byte) 'x');
        byte[] body = ("{\"pad\":\"" + new String(padding, StandardCharsets.US_ASCII) + "\",\"user\":\"late\"}")
                .getBytes(StandardCharsets.UTF_8);
        int before = backends.stream().mapToInt(b -> b.hits.get()).sum();
        for (int i = 0; i < 3; i++) {
            HttpResponse<String> response = post("/v1/responses", body, false);
            assertThat(response.body().split(" ")[2], is(TestBackend.sha256Hex(body)));
        }
        assertThat(backends.stream().mapToInt(b -> b.hits.get()).sum() - before, is(3));
    }

    @Test
    void serverSentEventsArriveOneByOneAsTheBackendWritesThem() throws Exception {
        HttpResponse<InputStream> response = CLIENT.send(HttpRequest.newBuilder(router.uri("/sse")).GET().build(),
                HttpResponse.BodyHandlers.ofInputStream());
        TestBackend origin = backends.stream()
                .filter(b -> b.name.equals(response.headers().firstValue("X-Backend").orElse(null)))
                .findFirst().orElseThrow();
        assertThat(response.headers().firstValue("Content-Type").orElseThrow(), is("text/event-stream"));
        try (BufferedReader lines = new BufferedReader(new InputStreamReader(response.body(), StandardCharsets.UTF_8))) {
            for (int i = 0; i < 5; i++) {
                assertThat(lines.readLine(), is("data: event-" + i));
                assertThat(lines.readLine(), is(""));
                // Only now may the backend write the next event.
                origin.sseProceed.release();
            }
            assertThat(lines.readLine(), is((String) null));
        }
        origin.sseProceed.drainPermits();
    }

    private static String nameOf(String key) {
        String id = router.ownerOf(key).id();
        return backends.stream().filter(b -> b.backend().id().equals(id)).findFirst().orElseThrow().name;
    }

    static byte[] json(int size, String user) {
        String head = user == null ? "{\"model\":\"m\",\"pad\":\"" : "{\"user\":\"" + user + "\",\"pad\":\"";
        String tail = "\"}";
        byte[] body = new byte[Math.max(size, head.length() + tail.length())];
        Arrays.fill(body, (byte) 'p');
        System.arraycopy(head.getBytes(StandardCharsets.UTF_8), 0, body, 0, head.length());
        System.arraycopy(tail.getBytes(StandardCharsets.UTF_8), 0, body, body.length - tail.length(), tail.length());
        return body;
    }

    static HttpResponse<String> post(String path, byte[] body, boolean chunked) throws Exception {
        HttpRequest.BodyPublisher publisher = chunked
                ? HttpRequest.BodyPublishers.ofInputStream(() -> new ByteArrayInputStream(body))
                : HttpRequest.BodyPublishers.ofByteArray(body);
        return CLIENT.send(HttpRequest.newBuilder(router.uri(path))
                        .header("Content-Type", "application/json")
                        .POST(publisher)
                        .build(),
                HttpResponse.BodyHandlers.ofString());
    }
}
