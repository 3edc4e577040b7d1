package io.insika.router.server.proxy;

import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import static io.insika.router.server.proxy.RouterFixture.CLIENT;
import static org.hamcrest.MatcherAssert.assertThat;
import static org.hamcrest.Matchers.greaterThan;
import static org.hamcrest.Matchers.hasSize;
import static org.hamcrest.Matchers.is;

class StickyRoutingTest {

    private final List<TestBackend> backends = new ArrayList<>();
    private RouterFixture router;

    @AfterEach
    void stop() {
        if (router != null) {
            router.close();
        }
        backends.forEach(TestBackend::close);
    }

    private void start(int count) {
        for (int i = 0; i < count; i++) {
            backends.add(TestBackend.start("backend-" + i));
        }
        router = RouterFixture.start(backends);
    }

    // The seed's smoke test: two backends, three POSTs of one session, one backend answers all.
    @Test
    void threePostsOfOneUserReachTheSameBackend() throws Exception {
        start(2);
        Set<String> answeredBy = new HashSet<>();
        for (int i = 0; i < 3; i++) {
            HttpResponse<String> response = post("/v1/responses", "{\"user\":\"sess-1\",\"i\":" + i + "}");
            assertThat(response.statusCode(), is(200));
            answeredBy.add(response.headers().firstValue("X-Backend").orElseThrow());
        }
        assertThat(answeredBy, hasSize(1));
    }

    @Test
    void everySessionStaysOnOneBackendAcrossAllKeyedPathsAndSessionsSpread() throws Exception {
        start(3);
        Map<String, Set<String>> backendsOfSession = new HashMap<>();
        for (int round = 0; round < 4; round++) {
            for (int s = 0; s < 500; s++) {
                String session = "session-" + s;
                String path = switch ((s + round) % 4) {
                    case 0 -> "/v1/responses";
                    case 1 -> "/v1/messages";
                    case 2 -> "/channels/c" + s + "/messages";
                    default -> "/channels/c" + s + "/events";
                };
                String body = path.startsWith("/v1")
                        ? "{\"model\":\"m\",\"user\":\"" + session + "\"}"
                        : "{\"type\":\"text\",\"session_id\":\"" + session + "\"}";
                HttpResponse<String> response = post(path, body);
                assertThat(response.statusCode(), is(200));
                backendsOfSession.computeIfAbsent(session, k -> new HashSet<>())
                        .add(response.headers().firstValue("X-Backend").orElseThrow());
            }
        }
        for (Map.Entry<String, Set<String>> session : backendsOfSession.entrySet()) {
            assertThat(session.getKey(), session.getValue(), hasSize(1));
        }
        for (TestBackend backend : backends) {
            assertThat(backend.name + " got sessions", backend.hits.get(), greaterThan(250));
        }
    }

    @Test
    void aKeyedRequestReachesTheOwnerTheStrategyNames() throws Exception {
        start(3);
        for (int s = 0; s < 50; s++) {
            String key = "owner-check-" + s;
            HttpResponse<String> response = post("/v1/responses", "{\"user\":\"" + key + "\"}");
            String expected = backends.stream()
                    .filter(b -> b.backend().id().equals(router.ownerOf(key).id()))
                    .findFirst().orElseThrow().name;
            assertThat(response.headers().firstValue("X-Backend").orElseThrow(), is(expected));
        }
    }

    @Test
    void unkeyedRequestsRotateEvenlyOverAllBackends() throws Exception {
        start(3);
        for (int i = 0; i < 30; i++) {
            String path = switch (i % 3) {
                case 0 -> "/studio/sessions";
                case 1 -> "/health";
                default -> "/v1/responses/abc"; // not a keyed route: the template must match whole
            };
            HttpResponse<String> response = CLIENT.send(HttpRequest.newBuilder(router.uri(path)).GET().build(),
                    HttpResponse.BodyHandlers.ofString());
            assertThat(response.statusCode(), is(200));
        }
        for (TestBackend backend : backends) {
            assertThat(backend.name, backend.hits.get(), is(10));
        }
    }

    @Test
    void upIsAnsweredByTheRouterItself() throws Exception {
        start(1);
        HttpResponse<String> response = CLIENT.send(HttpRequest.newBuilder(router.uri("/up")).GET().build(),
                HttpResponse.BodyHandlers.ofString());
        assertThat(response.statusCode(), is(200));
        assertThat(backends.getFirst().hits.get(), is(0));
    }

    private HttpResponse<String> post(String path, String json) throws Exception {
        return CLIENT.send(HttpRequest.newBuilder(router.uri(path))
                        .header("Content-Type", "application/json")
                        .POST(HttpRequest.BodyPublishers.ofString(json, StandardCharsets.UTF_8))
                        .build(),
                HttpResponse.BodyHandlers.ofString());
    }
}
