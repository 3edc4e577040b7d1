package io.insika.router.server.proxy;

import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.Optional;

import io.helidon.json.JsonParser;
import io.insika.router.server.Router;
import io.insika.router.server.config.RouterConfigLoader;
import io.insika.router.server.plugin.PluginRegistry;
import io.insika.router.server.testing.FixturePlugins;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import static io.insika.router.server.proxy.RouterFixture.CLIENT;
import static org.hamcrest.MatcherAssert.assertThat;
import static org.hamcrest.Matchers.containsString;
import static org.hamcrest.Matchers.is;
import static org.hamcrest.Matchers.not;

/**
 * What the admin port tells whoever reaches it: the configuration, the backends and the owner of
 * a key asked for, never a session key from the traffic nor the session secret.
 */
@Timeout(60)
class AdminAnswersTest {

    private static final List<String> ENDPOINTS = List.of("/observe/backends", "/observe/config", "/observe/metrics",
            "/observe/health", "/observe/health/ready", "/");

    @TempDir
    Path dir;
    private final List<TestBackend> backends = new ArrayList<>();
    private Router router;

    @AfterEach
    void tearDown() {
        if (router != null) {
            router.close();
        }
        backends.forEach(TestBackend::close);
    }

    @Test
    void noAdminAnswerCarriesASessionKeyOfTheTrafficNorTheSecret() throws Exception {
        String secret = "s3cret-bytes-of-the-seal-0123456789abcdef";
        Path secretFile = Files.writeString(dir.resolve("session.secret"), secret);
        TestBackend alpha = backend("alpha");
        TestBackend bravo = backend("bravo");
        start("sessions: { secret-file: " + secretFile + " }\n"
                + "backends: { static: [ \"" + alpha.backend().uri() + "\", \"" + bravo.backend().uri() + "\" ] }\n");
        List<String> keys = new ArrayList<>();
        for (int i = 0; i < 10; i++) {
            String key = "k3y-of-user-" + i + "-7f3a";
            keys.add(key);
            assertThat(post("/v1/responses", "{\"user\":\"" + key + "\"}").statusCode(), is(200));
            assertThat(post("/channels/" + key + "/messages", "{\"session_id\":\"" + key + "\"}").statusCode(),
                    is(200));
        }
        String lost = keyOwnedBy(bravo);
        keys.add(lost);
        bravo.close(); // its session gets the retry envelope, and bravo a last error
        assertThat(post("/v1/responses", "{\"user\":\"" + lost + "\"}").statusCode(), is(503));

        for (String endpoint : ENDPOINTS) {
            HttpResponse<String> answer = admin(endpoint);
            assertThat(endpoint, answer.statusCode(), is(200));
            for (String key : keys) {
                assertThat(endpoint, answer.body(), not(containsString(key)));
            }
            assertThat(endpoint, answer.body(), not(containsString(secret)));
            assertThat(endpoint, answer.body(), not(containsString(HexFormat.of().formatHex(
                    secret.getBytes(StandardCharsets.US_ASCII)))));
            assertThat(endpoint, answer.body(), not(containsString(secretFile.getFileName().toString())));
        }
        assertThat("the secret is named by its fingerprint", admin("/observe/config").body(),
                containsString("\"sessions.secret-file\":\"secret #"));
    }

    private String keyOwnedBy(TestBackend owner) throws Exception {
        for (int i = 0; ; i++) {
            String key = "lost-k3y-" + i;
            String answer = admin("/observe/owner?key=" + URLEncoder.encode(key, StandardCharsets.UTF_8)).body();
            if (JsonParser.create(answer).readJsonObject().stringValue("backend").orElseThrow()
                    .equals(owner.backend().id())) {
                return key;
            }
        }
    }

    private void start(String yaml) throws Exception {
        Path file = Files.writeString(dir.resolve("router.yaml"),
                "server: { host: 127.0.0.1, port: 0, admin-port: 0 }\n" + yaml);
        PluginRegistry plugins = FixturePlugins.builtIn();
        router = Router.start(new RouterConfigLoader(plugins).load(Optional.of(file), Map.of()), plugins);
    }

    private TestBackend backend(String name) {
        TestBackend backend = TestBackend.start(name);
        backends.add(backend);
        return backend;
    }

    private HttpResponse<String> post(String path, String json) throws Exception {
        return CLIENT.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + router.port() + path))
                .POST(HttpRequest.BodyPublishers.ofString(json)).build(), HttpResponse.BodyHandlers.ofString());
    }

    private HttpResponse<String> admin(String pathAndQuery) throws Exception {
        return CLIENT.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + router.adminPort()
                + pathAndQuery)).build(), HttpResponse.BodyHandlers.ofString());
    }
}
