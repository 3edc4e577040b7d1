package io.insika.router.server.proxy;

import java.io.InputStream;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.logging.Level;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import io.insika.router.api.Backend;
import io.insika.router.server.testing.Eventually;
import io.insika.router.server.testing.LogCapture;

import static io.insika.router.server.proxy.RouterFixture.CLIENT;
import static org.hamcrest.MatcherAssert.assertThat;
import static org.hamcrest.Matchers.containsString;
import static org.hamcrest.Matchers.empty;
import static org.hamcrest.Matchers.hasSize;
import static org.hamcrest.Matchers.is;
import static org.hamcrest.Matchers.not;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** With {@code proxy.access-log: true} every proxied request leaves one logfmt line. */
class AccessLogTest {

    private static final ProxySettings LOGGING = new ProxySettings(262_144, Duration.ofSeconds(10), true);

    private final List<TestBackend> backends = new ArrayList<>();
    private RouterFixture router;
    private LogCapture log;

    @BeforeEach
    void capture() {
        log = LogCapture.of(AccessLog.LOGGER_NAME);
    }

    @AfterEach
    void stop() {
        if (router != null) {
            router.close();
        }
        backends.forEach(TestBackend::close);
        log.close();
    }

    private void start(int count, ProxySettings settings) {
        for (int i = 0; i < count; i++) {
            backends.add(TestBackend.start("backend-" + i));
        }
        router = RouterFixture.start(backends, settings);
    }

    @Test
    void aKeyedRequestIsLoggedWithItsOwnerAndTheKeyOnlyAsADigest() throws Exception {
        start(3, LOGGING);
        Backend owner = router.ownerOf("alice@example.com");
        post("/v1/responses?token=s3cret", "{\"user\":\"alice@example.com\"}");

        String line = onlyLine();
        assertTrue(line.matches("client=127\\.0\\.0\\.1:\\d+ method=POST path=/v1/responses status=200 "
                + "bytes=\\d+ ms=\\d+\\.\\d{3} backend=" + owner.id().replace(".", "\\.")
                + " placement=key key=#[0-9a-f]{12} error=-"), line);
        assertThat(line, not(containsString("alice")));
        assertThat(line, not(containsString("s3cret"))); // the query string is never logged
        assertThat(line, containsString("key=" + SessionKeyDigest.of("alice@example.com")));
    }

    @Test
    void aRequestWithoutItsKeySaysWhy() throws Exception {
        start(2, LOGGING);
        post("/v1/responses", "{\"model\":\"m\"}");

        assertThat(onlyLine(), containsString(" placement=key-absent key=- error=-"));
    }

    @Test
    void anUnreachableOwnerIsLoggedWithTheEnvelopesStatus() throws Exception {
        start(2, LOGGING);
        Backend owner = router.ownerOf("orphan");
        backends.stream().filter(b -> b.backend().equals(owner)).findFirst().orElseThrow().close();
        post("/v1/responses", "{\"user\":\"orphan\"}");

        String line = onlyLine();
        assertThat(line, containsString(" status=503 "));
        assertThat(line, containsString(" backend=" + owner.id() + " placement=key "));
        assertThat(line, containsString(" error=unreachable"));
    }

    @Test
    void anEmptyPoolIsLoggedAsNoBackend() throws Exception {
        start(1, LOGGING);
        router.pool.update(List.of());
        get("/studio/x");

        assertThat(onlyLine(), containsString(" status=503 bytes="));
        assertThat(onlyLine(), containsString(" backend=- placement=no-route key=- error=no-backend"));
    }

    @Test
    void aStreamIsLoggedWhenItEndsAndAClientThatLeftSaysSo() throws Exception {
        start(1, LOGGING);
        HttpResponse<InputStream> stream = CLIENT.send(HttpRequest.newBuilder(router.uri("/endless")).build(),
                HttpResponse.BodyHandlers.ofInputStream());
        try (InputStream events = stream.body()) {
            assertThat(events.read(), not(-1));
            assertThat("nothing is logged while the stream runs", log.messages(Level.INFO), is(empty()));
        }
        Eventually.await(Duration.ofSeconds(10), () -> !log.messages(Level.INFO).isEmpty(),
                () -> "no access line after the client left");
        assertThat(onlyLine(), containsString(" status=200 "));
        assertThat(onlyLine(), containsString(" error=client-left"));
    }

    @Test
    void nothingIsLoggedUnlessAskedFor() throws Exception {
        start(1, ProxySettings.DEFAULTS);
        post("/v1/responses", "{\"user\":\"u\"}");
        get("/studio/x");
        router.close(); // every handler has ended
        router = null;

        assertThat(log.messages(Level.INFO), is(empty()));
    }

    @Test
    void valuesAClientControlsCannotForgeAFieldOrALine() {
        assertThat(logfmt("/v1/responses"), is("/v1/responses"));
        assertThat(logfmt("/a b"), is("\"/a b\""));
        assertThat(logfmt("/x status=200"), is("\"/x status=200\""));
        assertThat(logfmt("/q\"uote\\"), is("\"/q\\\"uote\\\\\""));
        assertThat(logfmt("/line\nclient=forged\r"), is("\"/line\\nclient=forged\\r\""));
        assertThat(logfmt("/bell\u0007"), is("\"/bell\\u0007\""));
        assertThat(logfmt(""), is("\"\""));
    }

    private static String logfmt(String value) {
        StringBuilder line = new StringBuilder();
        AccessLog.value(line, value);
        return line.toString();
    }

    // the line is written as the handler ends, which may be just after the client has its answer
    private String onlyLine() {
        Eventually.await(Duration.ofSeconds(5), () -> !log.messages(Level.INFO).isEmpty(), () -> "no access line");
        List<String> lines = log.messages(Level.INFO);
        assertThat(lines, hasSize(1));
        return lines.get(0);
    }

    private void post(String path, String body) throws Exception {
        CLIENT.send(HttpRequest.newBuilder(router.uri(path)).POST(HttpRequest.BodyPublishers.ofString(body)).build(),
                HttpResponse.BodyHandlers.ofString());
    }

    private void get(String path) throws Exception {
        CLIENT.send(HttpRequest.newBuilder(router.uri(path)).build(), HttpResponse.BodyHandlers.ofString());
    }
}
