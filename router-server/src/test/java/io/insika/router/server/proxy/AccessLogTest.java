package io.insika.router.server.proxy;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.URI;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Set;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import io.insika.router.api.Backend;
import io.insika.router.api.PluginOptions;
import io.insika.router.server.RouterServer;
import io.insika.router.server.logging.LogFormat;
import io.insika.router.server.routing.ExtractorSpec;
import io.insika.router.server.routing.RouteSpec;
import io.insika.router.server.routing.RouteTable;
import io.insika.router.server.testing.Eventually;
import io.insika.router.server.testing.FixturePlugins;
import io.insika.router.server.testing.JsonLine;
import io.insika.router.server.testing.Scrape;
import io.insika.router.server.testing.TestServers;
import io.insika.router.server.testing.TestProxySettings;

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

    private final ByteArrayOutputStream out = new ByteArrayOutputStream(); // synchronized: safe to read while written
    private final ProxySettings logging = TestProxySettings.builder().accessLog(out).build();
    @RegisterExtension
    final Routers routers = new Routers();
    private RouterFixture router;

    private void start(int count, ProxySettings settings) {
        router = routers.withBackends(count, settings);
    }

    @Test
    void aKeyedRequestIsLoggedWithItsOwnerAndTheKeyOnlyAsADigest() throws Exception {
        start(3, logging);
        Backend owner = router.ownerOf("alice@example.com");
        post("/v1/responses?token=s3cret", "{\"user\":\"alice@example.com\"}");

        String line = onlyLine();
        assertTrue(line.matches("time=\\d{4}-\\d\\d-\\d\\dT\\d\\d:\\d\\d:\\d\\d\\.\\d{3}Z client=127\\.0\\.0\\.1:\\d+ method=POST path=/v1/responses status=200 "
                + "bytes=\\d+ ms=\\d+\\.\\d{3} backend=" + owner.id().replace(".", "\\.")
                + " placement=key key=#[0-9a-f]{12} error=- request_id=[0-9a-f]{16}-[0-9a-f]+ host=127\\.0\\.0\\.1:\\d+ protocol=HTTP/1\\.1"
                + " user_agent=Java-http-client/\\S+ bytes_in=28 backend_ms=\\d+\\.\\d{3}"), line);
        assertThat(line, not(containsString("alice")));
        assertThat(line, not(containsString("s3cret"))); // the query string is never logged
        assertThat(line, containsString("key=" + SessionKeyDigest.of("alice@example.com")));
    }

    @Test
    void aKeyTakenFromThePathIsMaskedInThePathItIsLoggedWith() throws Exception {
        TestBackend backend = TestBackend.start("backend-0");
        RouteSpec sessions = new RouteSpec(
                Set.of(), "/sessions/{id}/*", List.of(new ExtractorSpec(
                        "path-segment", PluginOptions.of("routes[0].keys[0]",
                                Map.of("parameter", "id")))));
        try (RouterServer server = TestServers.start(
                RouteTable.build(List.of(sessions),
                        FixturePlugins.builtIn()),
                RouterFixture.ketamaPool(List.of(backend.backend())), logging)) {
            RouterFixture.CLIENT.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + server.port()
                    + "/sessions/alice%40example.com/events")).build(), HttpResponse.BodyHandlers.ofString());
            String line = onlyLine();

            assertThat(line, containsString(" path=/sessions/{key}/events "));
            assertThat(line, containsString("key=" + SessionKeyDigest.of("alice@example.com")));
            assertThat(line, not(containsString("alice")));
        } finally {
            backend.close();
        }
    }

    @Test
    void inJsonEachRequestIsOneObjectWithTheSameFieldsAndTheSameHygiene() throws Exception {
        start(2, TestProxySettings.builder().accessLog(out, LogFormat.JSON).build());
        Backend owner = router.ownerOf("alice@example.com");
        CLIENT.send(HttpRequest.newBuilder(router.uri("/v1/responses?token=s3cret"))
                .header("X-Request-Id", "edge-7f3a9c")
                .header("User-Agent", "probe \"quoted\" \\ 7f")
                .POST(HttpRequest.BodyPublishers.ofString("{\"user\":\"alice@example.com\"}")).build(),
                HttpResponse.BodyHandlers.discarding());

        String line = onlyLine();
        Map<String, String> fields = JsonLine.parse(line);

        assertThat(List.copyOf(fields.keySet()), is(List.of("time", "client", "method", "path", "status", "bytes",
                "ms", "backend", "placement", "key", "error", "request_id", "host", "protocol", "user_agent", "bytes_in",
                "backend_ms")));
        assertTrue(fields.get("time").matches("\\d{4}-\\d\\d-\\d\\dT\\d\\d:\\d\\d:\\d\\d\\.\\d{3}Z"), line);
        assertThat(fields.get("path"), is("/v1/responses"));
        assertThat(fields.get("status"), is("200"));
        assertTrue(fields.get("ms").matches("\\d+\\.\\d{3}"), line);
        assertThat(fields.get("backend"), is(owner.id()));
        assertThat(fields.get("placement"), is("key"));
        assertThat(fields.get("key"), is(SessionKeyDigest.of("alice@example.com")));
        assertThat(fields.get("error"), is((String) null));
        assertThat(fields.get("request_id"), is("edge-7f3a9c"));
        assertThat(fields.get("host"), is("127.0.0.1:" + router.port()));
        assertThat(fields.get("protocol"), is("HTTP/1.1"));
        assertThat(fields.get("user_agent"), is("probe \"quoted\" \\ 7f"));
        assertThat(fields.get("bytes_in"), is("28"));
        assertTrue(fields.get("backend_ms").matches("\\d+\\.\\d{3}"), line);
        assertTrue(Double.parseDouble(fields.get("backend_ms")) <= Double.parseDouble(fields.get("ms")), line);
        assertThat(line, not(containsString("alice")));
        assertThat(line, not(containsString("s3cret")));
    }

    @Test
    void onlyWholeSegmentsThatAreTheKeyAreMasked() {
        assertThat(AccessLog.withoutKey("/r/h1abc/Counter%23inc", "h1abc"), is("/r/{key}/Counter%23inc"));
        assertThat(AccessLog.withoutKey("/users/bob/bobby", "bob"), is("/users/{key}/bobby"));
        assertThat(AccessLog.withoutKey("/v1/responses", "alice"), is("/v1/responses"));
        assertThat(AccessLog.withoutKey("/a/%zz/b", "x"), is("/a/%zz/b"));
    }

    @Test
    void theRequestIdALoadBalancerSetIsLoggedSoLinesCanBeJoined() throws Exception {
        start(1, logging);
        CLIENT.send(HttpRequest.newBuilder(router.uri("/studio/x")).header("X-Request-Id", "7f3a9c-edge-2").build(),
                HttpResponse.BodyHandlers.discarding());

        assertThat(onlyLine(), containsString(" request_id=7f3a9c-edge-2 "));
    }

    @Test
    void aRequestTheRouterAnswersItselfIsLoggedWithoutABackendTime() throws Exception {
        start(1, logging);
        router.pool.update(List.of());
        get("/studio/x");

        assertThat(onlyLine(), org.hamcrest.Matchers.endsWith(" bytes_in=0 backend_ms=-"));
    }

    @Test
    void anAbsoluteFormTargetIsLoggedByItsPathNeverItsAuthorityOrCredentials() throws Exception {
        start(1, logging);
        String answer = EdgeSafetyTest.rawExchange(router.port(),
                "GET http://alice:s3cret@other.example/studio/x HTTP/1.1\r\nHost: x\r\n\r\n");

        String line = onlyLine();
        assertThat(answer, org.hamcrest.Matchers.startsWith("HTTP/1.1 400"));
        assertThat(line, containsString(" path=/studio/x status=400 "));
        assertThat(line, not(containsString("s3cret")));
        assertThat(line, not(containsString("alice")));
    }

    @Test
    void aRequestWithoutItsKeySaysWhy() throws Exception {
        start(2, logging);
        post("/v1/responses", "{\"model\":\"m\"}");

        assertThat(onlyLine(), containsString(" placement=key-absent key=- error=-"));
    }

    @Test
    void anUnreachableOwnerIsLoggedWithTheEnvelopesStatus() throws Exception {
        start(2, logging);
        Backend owner = router.ownerOf("orphan");
        router.backendOf(owner).close();
        post("/v1/responses", "{\"user\":\"orphan\"}");

        String line = onlyLine();
        assertThat(line, containsString(" status=503 "));
        assertThat(line, containsString(" backend=" + owner.id() + " placement=key "));
        assertThat(line, containsString(" error=unreachable"));
    }

    @Test
    void anEmptyPoolIsLoggedAsNoBackend() throws Exception {
        start(1, logging);
        router.pool.update(List.of());
        get("/studio/x");

        assertThat(onlyLine(), containsString(" status=503 bytes="));
        assertThat(onlyLine(), containsString(" backend=- placement=no-route key=- error=no-backend"));
    }

    @Test
    void aStreamIsLoggedWhenItEndsAndAClientThatLeftSaysSo() throws Exception {
        start(1, logging);
        HttpResponse<InputStream> stream = CLIENT.send(HttpRequest.newBuilder(router.uri("/endless")).build(),
                HttpResponse.BodyHandlers.ofInputStream());
        try (InputStream events = stream.body()) {
            assertThat(events.read(), not(-1));
            assertThat("nothing is logged while the stream runs", lines(), is(empty()));
        }
        Eventually.await(Duration.ofSeconds(10), () -> !lines().isEmpty(), () -> "no access line after the client left");
        assertThat(onlyLine(), containsString(" status=200 "));
        assertThat(onlyLine(), containsString(" error=client-left"));
    }

    @Test
    void aStreamThatFailsCostsTheLinesNotTheRequests() throws Exception {
        OutputStream broken = new OutputStream() {
            @Override
            public void write(int b) throws IOException {
                throw new IOException("stdout is gone");
            }
        };
        start(1, TestProxySettings.builder().accessLog(broken).build());
        for (int i = 0; i < 20; i++) {
            assertThat(status("/studio/" + i), is(200));
        }
        Eventually.await(Duration.ofSeconds(5),
                () -> Scrape.of(router.adminPort()).sum("insika_router_access_log_dropped_total") == 20.0,
                () -> Scrape.of(router.adminPort()).matching("insika_router_access_log_dropped_total").toString());
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

    private List<String> lines() {
        return out.toString(StandardCharsets.UTF_8).lines().toList();
    }

    // the line is written as the handler ends, which may be just after the client has its answer
    private String onlyLine() {
        Eventually.await(Duration.ofSeconds(5), () -> !lines().isEmpty(), () -> "no access line");
        List<String> lines = lines();
        assertThat(lines, hasSize(1));
        return lines.get(0);
    }

    private void post(String path, String body) throws Exception {
        CLIENT.send(HttpRequest.newBuilder(router.uri(path)).POST(HttpRequest.BodyPublishers.ofString(body)).build(),
                HttpResponse.BodyHandlers.ofString());
    }

    private int status(String path) throws Exception {
        return CLIENT.send(HttpRequest.newBuilder(router.uri(path)).build(), HttpResponse.BodyHandlers.discarding())
                .statusCode();
    }

    private void get(String path) throws Exception {
        CLIENT.send(HttpRequest.newBuilder(router.uri(path)).build(), HttpResponse.BodyHandlers.ofString());
    }
}
