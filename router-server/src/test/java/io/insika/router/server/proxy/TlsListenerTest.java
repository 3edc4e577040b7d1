package io.insika.router.server.proxy;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.math.BigInteger;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.net.http.WebSocket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLParameters;
import javax.net.ssl.SSLSocket;

import io.insika.router.api.PluginOptions;
import io.insika.router.server.RouterServer;
import io.insika.router.server.ServerSettings;
import io.insika.router.server.routing.DefaultRoutes;
import io.insika.router.server.routing.ExtractorSpec;
import io.insika.router.server.routing.RouteSpec;
import io.insika.router.server.routing.RouteTable;
import io.insika.router.server.testing.FixturePlugins;
import io.insika.router.server.testing.PeerProgram;
import io.insika.router.server.testing.RawHttp;
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
import static org.junit.jupiter.api.Assertions.assertThrows;

/**
 * HTTPS on the proxy port, as clients see it: the JDK's HttpClient and curl over TLS with the
 * test CA, sticky as over plain HTTP; events streamed unbuffered; a WebSocket over TLS; mutual TLS; only TLS 1.2+ and
 * forward-secret AEAD suites; plain HTTP sent to the TLS port closed at once; the admin port over
 * HTTPS when asked.
 */
@Timeout(60)
class TlsListenerTest {

    private static final Authority CA = TestCertificates.authority("listener-ca");
    private static final Duration LIMIT = Duration.ofSeconds(20);

    @TempDir
    Path dir;

    private final List<TestBackend> backends = new ArrayList<>();
    private RouterServer router;
    private Issued served;

    @AfterEach
    void stop() {
        if (router != null) {
            router.close();
        }
        backends.forEach(TestBackend::close);
    }

    @Test
    void everyUsersRequestsOverHttpsReachOneBackendWhichIsToldTheClientUsedHttps() throws Exception {
        start(3, Optional.empty(), false);
        HttpClient client = client(TestCertificates.trusting(CA));
        Map<String, Set<String>> backendsOfUser = new HashMap<>();
        for (int round = 0; round < 5; round++) {
            for (int user = 0; user < 40; user++) {
                HttpResponse<String> response = client.send(post("/v1/responses", "{\"user\":\"u" + user + "\"}"),
                        HttpResponse.BodyHandlers.ofString());
                assertThat(response.statusCode(), is(200));
                backendsOfUser.computeIfAbsent("u" + user, k -> new HashSet<>())
                        .add(response.headers().firstValue("X-Backend").orElseThrow());
            }
        }
        backendsOfUser.forEach((user, owners) -> assertThat(user, owners, hasSize(1)));
        assertThat("sessions spread", new HashSet<>(backendsOfUser.values()).size() > 1, is(true));
        for (TestBackend backend : backends) {
            if (backend.hits.get() > 0) {
                assertThat(backend.lastHeaders.get("x-forwarded-proto"), is(List.of("https")));
            }
        }
    }

    @Test
    void serverSentEventsOverTlsArriveOneByOneAsTheBackendWritesThem() throws Exception {
        start(1, Optional.empty(), false);
        TestBackend origin = backends.getFirst();
        HttpResponse<InputStream> response = client(TestCertificates.trusting(CA)).send(HttpRequest.newBuilder(
                URI.create("https://127.0.0.1:" + router.port() + "/sse")).timeout(LIMIT).build(),
                HttpResponse.BodyHandlers.ofInputStream());
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
    void curlWithTheTestCaIsServedOverHttp11AndKeptOnItsUsersBackend() throws Exception {
        start(2, Optional.empty(), false);
        Path ca = dir.resolve("ca.crt");
        TestCertificates.writePem(ca, CA.certificate());
        Set<String> owners = new HashSet<>();
        for (int i = 0; i < 5; i++) {
            PeerProgram.Run curl = PeerProgram.CURL.run(LIMIT, "-sS", "--http1.1", "--cacert", ca.toString(),
                    "-D", "-", "-o", "/dev/null", "-H", "Content-Type: application/json",
                    "--data", "{\"user\":\"curl-user\",\"i\":" + i + "}", "https://127.0.0.1:" + router.port()
                            + "/v1/responses");
            assertThat(curl.output(), curl.status(), is(0));
            assertThat(curl.output(), startsWith("HTTP/1.1 200"));
            owners.add(curl.output().lines().filter(line -> line.toLowerCase().startsWith("x-backend:")).findFirst()
                    .orElseThrow());
        }
        assertThat(owners, hasSize(1));
    }

    @Test
    void withClientCasAClientWithoutACertificateIsRefusedAndOneWithACertificateServed() throws Exception {
        Authority clients = TestCertificates.authority("client-ca");
        Path cas = dir.resolve("clients.crt");
        TestCertificates.writePem(cas, clients.certificate());
        start(1, Optional.of(cas), false);

        assertThrows(IOException.class, () -> client(TestCertificates.trusting(CA))
                .send(post("/v1/responses", "{\"user\":\"a\"}"), HttpResponse.BodyHandlers.ofString()));
        assertThrows(IOException.class, () -> client(TestCertificates.trusting(CA,
                TestCertificates.authority("stranger").client("mallory")))
                .send(post("/v1/responses", "{\"user\":\"a\"}"), HttpResponse.BodyHandlers.ofString()));
        HttpResponse<String> served = client(TestCertificates.trusting(CA, clients.client("alice")))
                .send(post("/v1/responses", "{\"user\":\"a\"}"), HttpResponse.BodyHandlers.ofString());

        assertThat(served.statusCode(), is(200));
        assertThat("only the client with a certificate reached the backend", backends.getFirst().hits.get(), is(1));
    }

    @Test
    void tls11IsRefusedAndTls12Served() throws Exception {
        start(1, Optional.empty(), false);
        String connect = "127.0.0.1:" + router.port();

        // SECLEVEL=0 lets openssl itself offer TLS 1.1: the refusal is the router's
        PeerProgram.Run old = PeerProgram.OPENSSL.run(LIMIT, "s_client", "-connect", connect, "-tls1_1",
                "-cipher", "DEFAULT@SECLEVEL=0");
        PeerProgram.Run current = PeerProgram.OPENSSL.run(LIMIT, "s_client", "-connect", connect, "-tls1_2");

        assertThat(old.output(), old.status(), not(is(0)));
        assertThat(old.output(), containsString("alert protocol version"));
        assertThat(current.output(), current.status(), is(0));
        assertThat(current.output(), containsString("Protocol  : TLSv1.2"));
    }

    @Test
    void tls13IsPreferredAndTls12NegotiatesOnlyForwardSecretAeadSuites() throws Exception {
        start(1, Optional.empty(), false);

        try (SSLSocket newest = handshake(TestCertificates.trusting(CA), null, null)) {
            assertThat(newest.getSession().getProtocol(), is("TLSv1.3"));
        }
        try (SSLSocket gcm = handshake(TestCertificates.trusting(CA), "TLSv1.2", null)) {
            assertThat(gcm.getSession().getCipherSuite(), startsWith("TLS_ECDHE_ECDSA_WITH_AES_128_GCM"));
        }
        // the JDK's own defaults would take this CBC suite: the router's list must not
        assertThrows(IOException.class, () -> handshake(TestCertificates.trusting(CA), "TLSv1.2",
                "TLS_ECDHE_ECDSA_WITH_AES_128_CBC_SHA256").close());
    }

    @Test
    void plainHttpSentToTheTlsPortIsClosedAtOnceNotLeftHanging() throws Exception {
        start(1, Optional.empty(), false);
        try (Socket socket = new Socket("127.0.0.1", router.port())) {
            socket.setSoTimeout(5_000);
            socket.getOutputStream().write("GET /up HTTP/1.1\r\nHost: x\r\n\r\n".getBytes(StandardCharsets.US_ASCII));
            InputStream in = socket.getInputStream();
            try {
                byte[] answered = in.readAllBytes(); // a TLS alert at most, then the close
                assertThat(new String(answered, StandardCharsets.ISO_8859_1), not(containsString("HTTP/1.1 200")));
            } catch (SocketTimeoutException e) {
                throw new AssertionError("the connection was left open", e);
            } catch (IOException e) {
                // reset: closed with our bytes unread, as good as a close
            }
        }
        assertThat("nothing was proxied", backends.getFirst().hits.get(), is(0));
    }

    @Test
    void aClientThatStallsItsHandshakeIsClosedAfterTheHeadTimeout() throws Exception {
        backends.add(TestBackend.start("backend-0"));
        ServerSettings tls = TestServers.settings(new TlsSettings(material(Optional.empty()), false));
        router = RouterServer.start(new ServerSettings(tls.host(), tls.port(), tls.adminHost(), tls.adminPort(),
                        tls.shutdownGrace(), tls.stopDelay(), tls.maxConnections(), tls.leanHttp1(), Duration.ofMillis(800),
                        tls.idleTimeout(), tls.tls(), io.insika.router.server.proxy.Http2Settings.DEFAULTS),
                RouterFixture.defaultRoutes(), RouterFixture.ketamaPool(List.of(backends.getFirst().backend())),
                TestProxySettings.DEFAULTS);
        try (Socket silent = new Socket("127.0.0.1", router.port());
             Socket stalled = new Socket("127.0.0.1", router.port())) {
            stalled.getOutputStream().write(new byte[] {0x16, 0x03, 0x01, 0x02, 0x00}); // a ClientHello's record header only
            for (Socket socket : List.of(silent, stalled)) {
                socket.setSoTimeout(8_000);
                try {
                    assertThat("closed with nothing sent", socket.getInputStream().read(), is(-1));
                } catch (SocketTimeoutException e) {
                    throw new AssertionError("the connection was left open", e);
                } catch (IOException reset) {
                    // closed
                }
            }
        }
    }

    @Test
    void theAdminPortServesHttpsWhenAskedWithoutAskingForAClientCertificate() throws Exception {
        Authority clients = TestCertificates.authority("client-ca");
        Path cas = dir.resolve("clients.crt");
        TestCertificates.writePem(cas, clients.certificate());
        start(1, Optional.of(cas), true);

        HttpResponse<String> health = client(TestCertificates.trusting(CA)).send(HttpRequest.newBuilder(
                URI.create("https://127.0.0.1:" + router.adminPort() + "/observe/health")).timeout(LIMIT).build(),
                HttpResponse.BodyHandlers.ofString());

        assertThat(health.statusCode(), is(200));
        assertThat(health.sslSession().orElseThrow().getPeerCertificates()[0].equals(served.certificate()), is(true));
    }

    @Test
    void withoutTheAdminFlagTheAdminPortStaysPlainHttp() throws Exception {
        start(1, Optional.empty(), false);
        try (Socket socket = new Socket("127.0.0.1", router.adminPort())) {
            socket.setSoTimeout(5_000);
            socket.getOutputStream().write("GET /observe/health HTTP/1.1\r\nHost: x\r\n\r\n"
                    .getBytes(StandardCharsets.US_ASCII));
            assertThat(String.valueOf(RawHttp.readHead(socket.getInputStream())), startsWith("HTTP/1.1 200"));
        }
    }

    @Test
    void aWebSocketOverTlsIsTunnelledToItsOwnerWhichIsToldTheClientUsedHttps() throws Exception {
        EchoBackend engine = new EchoBackend("engine");
        engine.speakWebSocket = true;
        try {
            List<RouteSpec> specs = new ArrayList<>(DefaultRoutes.specs());
            specs.add(new RouteSpec(Set.of("GET"), "/socket.io/", List.of(new ExtractorSpec("query",
                    PluginOptions.of("routes[4].keys[0]", Map.of("name", "stickyId"))))));
            router = RouterServer.start(TestServers.settings(new TlsSettings(material(Optional.empty()), false)),
                    RouteTable.build(specs, FixturePlugins.builtIn()), RouterFixture.ketamaPool(List.of(engine.backend())),
                    TestProxySettings.DEFAULTS);
            List<String> received = new CopyOnWriteArrayList<>();
            CountDownLatch replied = new CountDownLatch(1);
            WebSocket socket = client(TestCertificates.trusting(CA)).newWebSocketBuilder().buildAsync(URI.create(
                    "wss://127.0.0.1:" + router.port() + "/socket.io/?EIO=4&transport=websocket&stickyId=s"),
                    new WebSocket.Listener() {
                        @Override
                        public CompletionStage<?> onText(WebSocket ws, CharSequence data, boolean last) {
                            received.add(data.toString());
                            replied.countDown();
                            return null;
                        }
                    }).get(10, TimeUnit.SECONDS);

            socket.sendText("over tls", true).get(10, TimeUnit.SECONDS);

            assertThat(replied.await(10, TimeUnit.SECONDS), is(true));
            assertThat(received, is(List.of("engine:over tls")));
            assertThat(engine.requests.getFirst().toLowerCase(), containsString("x-forwarded-proto: https"));
            socket.sendClose(WebSocket.NORMAL_CLOSURE, "done").get(10, TimeUnit.SECONDS);
        } finally {
            engine.close();
        }
    }

    private void start(int count, Optional<Path> clientCa, boolean admin) throws IOException {
        for (int i = 0; i < count; i++) {
            backends.add(TestBackend.start("backend-" + i));
        }
        router = RouterServer.start(TestServers.settings(new TlsSettings(material(clientCa), admin)),
                RouterFixture.defaultRoutes(), RouterFixture.ketamaPool(backends.stream().map(TestBackend::backend)
                        .toList()), TestProxySettings.DEFAULTS);
    }

    private TlsMaterial material(Optional<Path> clientCa) throws IOException {
        served = CA.server(BigInteger.valueOf(0x5eed), "EC");
        TestCertificates.write(served, dir.resolve("tls.crt"), dir.resolve("tls.key"), KeyFormat.TRADITIONAL);
        return TlsMaterial.read(dir.resolve("tls.crt"), dir.resolve("tls.key"), clientCa);
    }

    private SSLSocket handshake(SSLContext context, String protocol, String suite) throws IOException {
        SSLSocket socket = (SSLSocket) context.getSocketFactory().createSocket("127.0.0.1", router.port());
        SSLParameters parameters = socket.getSSLParameters();
        if (protocol != null) {
            parameters.setProtocols(new String[] {protocol});
        }
        if (suite != null) {
            parameters.setCipherSuites(new String[] {suite});
        }
        socket.setSSLParameters(parameters);
        socket.setSoTimeout(5_000);
        socket.startHandshake();
        return socket;
    }

    private static HttpClient client(SSLContext context) {
        return HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).sslContext(context)
                .connectTimeout(Duration.ofSeconds(5)).build();
    }

    private HttpRequest post(String path, String json) {
        return HttpRequest.newBuilder(URI.create("https://127.0.0.1:" + router.port() + path)).timeout(LIMIT)
                .header("Content-Type", "application/json").POST(HttpRequest.BodyPublishers.ofString(json)).build();
    }
}
