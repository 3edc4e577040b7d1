package io.insika.router.server.proxy;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.math.BigInteger;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

import io.insika.router.server.RouterServer;
import io.insika.router.server.ServerSettings;
import io.insika.router.server.testing.PeerProgram;
import io.insika.router.server.testing.TestCertificates;
import io.insika.router.server.testing.TestCertificates.Authority;
import io.insika.router.server.testing.TestCertificates.Issued;
import io.insika.router.server.testing.TestCertificates.KeyFormat;
import io.insika.router.server.testing.TestProxySettings;
import io.insika.router.server.testing.TestServers;
import io.insika.router.server.tls.TlsMaterial;
import io.insika.router.server.tls.TlsSettings;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import static org.hamcrest.MatcherAssert.assertThat;
import static org.hamcrest.Matchers.containsString;
import static org.hamcrest.Matchers.hasSize;
import static org.hamcrest.Matchers.is;
import static org.hamcrest.Matchers.not;
import static org.hamcrest.Matchers.startsWith;

/**
 * HTTP/2 on the proxy port, as clients see it: curl negotiating {@code h2} by ALPN over TLS and
 * speaking it by prior knowledge on a plain port, sticky by the {@code user} of a JSON body; Server-Sent
 * Events over h2 event by event; the retry envelope; {@code /up}; Node's {@code http2} client.
 */
@Timeout(90)
class Http2ListenerTest {

    private static final Authority CA = TestCertificates.authority("h2-ca");
    private static final Duration LIMIT = Duration.ofSeconds(30);
    private static final Http2Settings OFF = new Http2Settings(false, Http2Settings.DEFAULT_MAX_CONCURRENT_STREAMS,
            Http2Settings.DEFAULT_MAX_HEADER_LIST_SIZE, Http2Settings.DEFAULT_INITIAL_WINDOW_SIZE);

    @TempDir
    Path dir;

    private final List<TestBackend> backends = new ArrayList<>();
    private RouterServer router;

    @AfterEach
    void stop() {
        if (router != null) {
            router.close();
        }
        backends.forEach(TestBackend::close);
    }

    @Test
    void curlNegotiatesH2OverTlsAndEveryUsersRequestsReachOneBackend() throws Exception {
        startTls(3);
        Path ca = caFile();
        Map<String, Set<String>> backendsOfUser = new HashMap<>();
        for (int user = 0; user < 12; user++) {
            // three requests of one user over one connection: the streams of one h2 connection
            String url = "https://127.0.0.1:" + router.port() + "/v1/responses";
            PeerProgram.Run curl = PeerProgram.CURL.run(LIMIT, "-sS", "--http2", "--cacert", ca.toString(),
                    "-D", "-", "-H", "Content-Type: application/json", "--data", "{\"user\":\"u" + user + "\"}",
                    url, "-o", "/dev/null", url, "-o", "/dev/null", url, "-o", "/dev/null");
            assertThat(curl.output(), curl.status(), is(0));
            List<String> statuses = lines(curl.output(), "HTTP/");
            assertThat(curl.output(), statuses, is(List.of("HTTP/2 200", "HTTP/2 200", "HTTP/2 200")));
            backendsOfUser.put("u" + user, new HashSet<>(lines(curl.output(), "x-backend:")));
        }
        backendsOfUser.forEach((user, owners) -> assertThat(user, owners, hasSize(1)));
        assertThat("sessions spread", new HashSet<>(backendsOfUser.values()).size() > 1, is(true));
        for (TestBackend backend : backends) {
            if (backend.hits.get() > 0) {
                assertThat(backend.lastHeaders.get("x-forwarded-proto"), is(List.of("https")));
                assertThat(backend.lastHeaders.get("host"), is(List.of("127.0.0.1:" + router.port())));
            }
        }
    }

    @Test
    void curlWithPriorKnowledgeOnThePlainPortIsStickyAndTheBodyArrivesIntact() throws Exception {
        startPlain(3);
        Map<String, Set<String>> backendsOfUser = new HashMap<>();
        String body = "{\"user\":\"%s\",\"text\":\"" + "x".repeat(100_000) + "\"}";
        for (int round = 0; round < 3; round++) {
            for (int user = 0; user < 6; user++) {
                String json = body.formatted("p" + user);
                PeerProgram.Run curl = PeerProgram.CURL.run(LIMIT, "-sS", "--http2-prior-knowledge", "-D", "-",
                        "-H", "Content-Type: application/json", "--data", json,
                        "http://127.0.0.1:" + router.port() + "/v1/responses");
                assertThat(curl.output(), curl.status(), is(0));
                assertThat(curl.output(), startsWith("HTTP/2 200"));
                String owner = lines(curl.output(), "x-backend:").getFirst().substring("x-backend:".length()).strip();
                // the echo names the bytes it got: the same length and digest as sent
                assertThat(curl.output(), containsString(owner + " " + json.length() + " "
                        + TestBackend.sha256Hex(json.getBytes(StandardCharsets.UTF_8))));
                backendsOfUser.computeIfAbsent("p" + user, k -> new HashSet<>()).add(owner);
            }
        }
        backendsOfUser.forEach((user, owners) -> assertThat(user, owners, hasSize(1)));
        assertThat("sessions spread", new HashSet<>(backendsOfUser.values()).size() > 1, is(true));
    }

    @Test
    void serverSentEventsOverH2ArriveOneByOneAsTheBackendWritesThem() throws Exception {
        startTls(1);
        TestBackend origin = backends.getFirst();
        HttpClient client = HttpClient.newBuilder().version(HttpClient.Version.HTTP_2)
                .sslContext(TestCertificates.trusting(CA)).connectTimeout(LIMIT).build();
        HttpResponse<InputStream> response = client.send(HttpRequest.newBuilder(
                URI.create("https://127.0.0.1:" + router.port() + "/sse")).timeout(LIMIT).build(),
                HttpResponse.BodyHandlers.ofInputStream());
        assertThat(response.version(), is(HttpClient.Version.HTTP_2));
        try (BufferedReader lines = new BufferedReader(new InputStreamReader(response.body(), StandardCharsets.UTF_8))) {
            for (int i = 0; i < 5; i++) {
                assertThat(lines.readLine(), is("data: event-" + i));
                assertThat(lines.readLine(), is(""));
                origin.sseProceed.release(); // only now may the backend write the next event
            }
            assertThat(lines.readLine(), is((String) null));
        }
        origin.sseProceed.drainPermits();
    }

    @Test
    void anOwnerThatIsDownGivesTheRetryEnvelopeOverH2() throws Exception {
        startPlain(1);
        backends.getFirst().close();
        PeerProgram.Run curl = PeerProgram.CURL.run(LIMIT, "-sS", "--http2-prior-knowledge", "-D", "-",
                "-H", "Content-Type: application/json", "--data", "{\"user\":\"gone\"}",
                "http://127.0.0.1:" + router.port() + "/v1/responses");

        assertThat(curl.output(), curl.status(), is(0));
        assertThat(curl.output(), startsWith("HTTP/2 503"));
        assertThat(curl.output().toLowerCase(Locale.ROOT), containsString("retry-after: 1"));
        assertThat(curl.output(), containsString("\"retryable\":true"));
        assertThat(curl.output().toLowerCase(Locale.ROOT), not(containsString("connection:")));
    }

    @Test
    void upIsAnsweredOverH2OnBothPorts() throws Exception {
        startPlain(1);
        PeerProgram.Run plain = PeerProgram.CURL.run(LIMIT, "-sS", "--http2-prior-knowledge", "-D", "-",
                "http://127.0.0.1:" + router.port() + "/up");
        assertThat(plain.output(), plain.status(), is(0));
        assertThat(plain.output(), startsWith("HTTP/2 200"));
        assertThat(plain.output(), containsString("OK"));
        router.close();
        backends.forEach(TestBackend::close);
        backends.clear();

        startTls(1);
        PeerProgram.Run tls = PeerProgram.CURL.run(LIMIT, "-sS", "--http2", "--cacert", caFile().toString(), "-D", "-",
                "https://127.0.0.1:" + router.port() + "/up");
        assertThat(tls.output(), tls.status(), is(0));
        assertThat(tls.output(), startsWith("HTTP/2 200"));
        assertThat("/up is the router's", backends.getFirst().hits.get(), is(0));
    }

    @Test
    void anUpgradeToH2cIsServedAsHttp11() throws Exception {
        startPlain(1);
        // curl --http2 on a plain URL asks for Upgrade: h2c, which the router does not do
        PeerProgram.Run curl = PeerProgram.CURL.run(LIMIT, "-sS", "--http2", "-D", "-",
                "http://127.0.0.1:" + router.port() + "/plain");
        assertThat(curl.output(), curl.status(), is(0));
        assertThat(curl.output(), startsWith("HTTP/1.1 200"));
        assertThat("the backend got no upgrade", backends.getFirst().lastHeaders.containsKey("upgrade"), is(false));
    }

    @Test
    void withHttp2OffTlsOffersOnlyHttp11AndThePrefaceIsClosed() throws Exception {
        backends.add(TestBackend.start("backend-0"));
        ServerSettings plain = TestServers.settings(ServerSettings.DEFAULT_MAX_CONNECTIONS,
                ServerSettings.DEFAULT_HEAD_TIMEOUT, ServerSettings.DEFAULT_IDLE_TIMEOUT, OFF);
        router = RouterServer.start(plain, RouterFixture.defaultRoutes(),
                RouterFixture.ketamaPool(List.of(backends.getFirst().backend())), TestProxySettings.DEFAULTS);
        PeerProgram.Run prior = PeerProgram.CURL.run(LIMIT, "-sS", "--http2-prior-knowledge",
                "http://127.0.0.1:" + router.port() + "/up");
        assertThat(prior.output(), prior.status(), not(is(0)));
        router.close();

        Issued served = CA.server(BigInteger.valueOf(0x2e3), "EC");
        TestCertificates.write(served, dir.resolve("off.crt"), dir.resolve("off.key"), KeyFormat.TRADITIONAL);
        ServerSettings tls = TestServers.settings(new TlsSettings(
                TlsMaterial.read(dir.resolve("off.crt"), dir.resolve("off.key"), java.util.Optional.empty()), false));
        router = RouterServer.start(new ServerSettings(tls.host(), tls.port(), tls.adminHost(), tls.adminPort(),
                        tls.shutdownGrace(), tls.stopDelay(), tls.maxConnections(), tls.leanHttp1(), tls.headTimeout(),
                        tls.idleTimeout(), tls.tls(), OFF), RouterFixture.defaultRoutes(),
                RouterFixture.ketamaPool(List.of(backends.getFirst().backend())), TestProxySettings.DEFAULTS);
        PeerProgram.Run alpn = PeerProgram.CURL.run(LIMIT, "-sS", "--http2", "--cacert", caFile().toString(), "-D", "-",
                "https://127.0.0.1:" + router.port() + "/up");
        assertThat(alpn.output(), alpn.status(), is(0));
        assertThat(alpn.output(), startsWith("HTTP/1.1 200"));
    }

    @Test
    void nodesHttp2ClientIsStickyOverTls() throws Exception {
        startTls(3);
        String script = """
                const http2 = require('node:http2');
                const fs = require('node:fs');
                const [ca, url] = process.argv.slice(1);
                const session = http2.connect(url, { ca: fs.readFileSync(ca) });
                session.on('error', e => { console.error(e); process.exit(2); });
                const one = (user) => new Promise((resolve, reject) => {
                  const req = session.request({ ':method': 'POST', ':path': '/v1/responses',
                                                'content-type': 'application/json' });
                  let backend;
                  req.on('response', h => { backend = h['x-backend'] + ' ' + h[':status']; });
                  req.on('data', () => {});
                  req.on('end', () => resolve(user + ' ' + backend));
                  req.on('error', reject);
                  req.end(JSON.stringify({ user }));
                });
                (async () => {
                  const all = [];
                  for (let round = 0; round < 3; round++)
                    for (let u = 0; u < 8; u++) all.push(one('n' + u));
                  for (const line of await Promise.all(all)) console.log(line);
                  session.close();
                })().catch(e => { console.error(e); process.exit(1); });
                """;
        PeerProgram.Run node = PeerProgram.NODE.run(LIMIT, "-e", script, caFile().toString(),
                "https://127.0.0.1:" + router.port());

        assertThat(node.output(), node.status(), is(0));
        Map<String, Set<String>> backendsOfUser = new HashMap<>();
        node.output().lines().filter(line -> line.startsWith("n")).forEach(line -> {
            String[] parts = line.split(" ");
            assertThat(line, parts[2], is("200"));
            backendsOfUser.computeIfAbsent(parts[0], k -> new HashSet<>()).add(parts[1]);
        });
        assertThat(node.output(), backendsOfUser.size(), is(8));
        backendsOfUser.forEach((user, owners) -> assertThat(user, owners, hasSize(1)));
    }

    private static List<String> lines(String output, String prefix) {
        return output.lines().map(String::strip)
                .filter(line -> line.toLowerCase(Locale.ROOT).startsWith(prefix.toLowerCase(Locale.ROOT))).toList();
    }

    private void startPlain(int count) {
        for (int i = 0; i < count; i++) {
            backends.add(TestBackend.start("backend-" + i));
        }
        router = RouterServer.start(TestServers.settings(), RouterFixture.defaultRoutes(),
                RouterFixture.ketamaPool(backends.stream().map(TestBackend::backend).toList()), TestProxySettings.DEFAULTS);
    }

    private void startTls(int count) throws IOException {
        for (int i = 0; i < count; i++) {
            backends.add(TestBackend.start("backend-" + i));
        }
        Issued served = CA.server(BigInteger.valueOf(0x2e2), "EC");
        TestCertificates.write(served, dir.resolve("tls.crt"), dir.resolve("tls.key"), KeyFormat.TRADITIONAL);
        ServerSettings settings = TestServers.settings(new TlsSettings(
                TlsMaterial.read(dir.resolve("tls.crt"), dir.resolve("tls.key"), java.util.Optional.empty()), false));
        router = RouterServer.start(settings, RouterFixture.defaultRoutes(),
                RouterFixture.ketamaPool(backends.stream().map(TestBackend::backend).toList()), TestProxySettings.DEFAULTS);
    }

    private Path caFile() throws IOException {
        Path ca = dir.resolve("ca.crt");
        TestCertificates.writePem(ca, CA.certificate());
        return ca;
    }
}
