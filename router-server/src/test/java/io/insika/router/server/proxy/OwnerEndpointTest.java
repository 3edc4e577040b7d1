package io.insika.router.server.proxy;

import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.util.List;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import io.insika.router.server.testing.TestProxySettings;

import static io.insika.router.server.proxy.RouterFixture.CLIENT;
import static org.hamcrest.MatcherAssert.assertThat;
import static org.hamcrest.Matchers.is;

/** {@code /observe/owner?key=} on the admin port names the backend the proxy really uses. */
class OwnerEndpointTest {

    @RegisterExtension
    final Routers routers = new Routers();
    private RouterFixture router;

    @Test
    void itNamesTheBackendThatAnswersTheKeysRequests() throws Exception {
        router = routers.withBackends(3, TestProxySettings.DEFAULTS);
        for (String key : List.of("alice", "bob", "carol", "dave", "user with spaces & ünïcode")) {
            HttpResponse<String> owner = owner(key);
            String answeredBy = CLIENT.send(HttpRequest.newBuilder(router.uri("/v1/responses"))
                            .POST(HttpRequest.BodyPublishers.ofString("{\"user\":\"" + key + "\"}")).build(),
                    HttpResponse.BodyHandlers.ofString()).headers().firstValue("X-Backend").orElseThrow();
            TestBackend backend = router.backends.stream().filter(b -> b.name.equals(answeredBy)).findFirst()
                    .orElseThrow();

            assertThat(owner.statusCode(), is(200));
            assertThat(key, owner.body(), is("{\"backend\":\"" + backend.backend().id() + "\",\"backends\":3}"));
        }
    }

    @Test
    void withoutAKeyItSaysHowToAsk() throws Exception {
        router = routers.withBackends(1, TestProxySettings.DEFAULTS);

        HttpResponse<String> answer = get("/observe/owner");

        assertThat(answer.statusCode(), is(400));
        assertThat(answer.body(), is("{\"error\":\"name the session key: /observe/owner?key=...\"}"));
    }

    @Test
    void anEmptyPoolHasNoOwner() throws Exception {
        router = routers.withBackends(1, TestProxySettings.DEFAULTS);
        router.pool.update(List.of());

        HttpResponse<String> answer = owner("alice");

        assertThat(answer.statusCode(), is(503));
        assertThat(answer.body(), is("{\"backend\":null,\"backends\":0}"));
    }

    private HttpResponse<String> owner(String key) throws Exception {
        return get("/observe/owner?key=" + URLEncoder.encode(key, StandardCharsets.UTF_8));
    }

    private HttpResponse<String> get(String pathAndQuery) throws Exception {
        return CLIENT.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + router.adminPort() + pathAndQuery))
                .build(), HttpResponse.BodyHandlers.ofString());
    }
}
