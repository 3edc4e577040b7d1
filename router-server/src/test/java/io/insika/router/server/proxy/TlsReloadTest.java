package io.insika.router.server.proxy;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.math.BigInteger;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.cert.X509Certificate;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.logging.Level;

import javax.net.ssl.SSLSocket;

import io.insika.router.server.ConfigReload;
import io.insika.router.server.Router;
import io.insika.router.server.config.RouterConfig;
import io.insika.router.server.config.RouterConfigLoader;
import io.insika.router.server.testing.Eventually;
import io.insika.router.server.testing.FixturePlugins;
import io.insika.router.server.testing.LogCapture;
import io.insika.router.server.testing.RawHttp;
import io.insika.router.server.testing.Scrape;
import io.insika.router.server.testing.SecretVolume;
import io.insika.router.server.testing.TestCertificates;
import io.insika.router.server.testing.TestCertificates.Authority;
import io.insika.router.server.testing.TestCertificates.Issued;
import io.insika.router.server.testing.TestCertificates.KeyFormat;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import static org.hamcrest.MatcherAssert.assertThat;
import static org.hamcrest.Matchers.containsString;
import static org.hamcrest.Matchers.empty;
import static org.hamcrest.Matchers.hasItem;
import static org.hamcrest.Matchers.is;

/**
 * Certificate rotation on a running router, as cert-manager and the kubelet do it: the Secret's
 * files are swapped in place and the router reloads (SIGHUP's work, done in-process). New
 * handshakes present the new certificate, open connections keep theirs, no request fails; a bad
 * new pair is refused, counted, and the running one kept.
 */
@Timeout(60)
class TlsReloadTest {

    private static final Authority CA = TestCertificates.authority("rotation-ca");

    @TempDir
    Path dir;

    private TestBackend backend;
    private SecretVolume secret;
    private Router router;
    private ConfigReload reload;

    @AfterEach
    void stop() {
        if (router != null) {
            router.close();
        }
        if (backend != null) {
            backend.close();
        }
    }

    @Test
    void underLoadNewConnectionsPresentTheRotatedCertificateOpenOnesKeepTheirsAndNoRequestFails() throws Exception {
        Issued first = CA.server(BigInteger.valueOf(0x1111), "EC");
        Issued second = CA.server(BigInteger.valueOf(0x2222), "RSA");
        start(first);
        SSLSocket keptOpen = connect();
        assertThat(exchange(keptOpen, "/kept/before"), containsString(" 200 "));

        RotationUnderLoad rotation = new RotationUnderLoad();
        for (int i = 0; i < 2; i++) {
            int client = i;
            // keep-alive clients: their connections outlive the rotation
            HttpClient http = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1)
                    .sslContext(TestCertificates.trusting(CA)).build();
            rotation.client("kept", n -> {
                HttpResponse<String> response = http.send(HttpRequest.newBuilder(URI.create(
                        "https://127.0.0.1:" + router.port() + "/v1/responses")).timeout(Duration.ofSeconds(10))
                        .POST(HttpRequest.BodyPublishers.ofString("{\"user\":\"kept-" + client + "-" + n + "\"}"))
                        .build(), HttpResponse.BodyHandlers.ofString());
                return new Served(response.statusCode() == 200, response.statusCode(), null);
            });
            // a new connection (and a new client context: no session resumed) per request
            rotation.client("fresh", n -> {
                try (SSLSocket socket = connect()) {
                    String head = exchange(socket, "/fresh/" + client + "/" + n);
                    return new Served(head.contains(" 200 "), head, serial(socket));
                }
            });
        }
        rotation.rotateTo(second, 40, 40);

        assertThat("no request failed", rotation.failures, empty());
        assertThat("every connection made after the reload was presented the new certificate",
                rotation.seenAfterReload, is(Set.of(second.serial())));
        assertThat("a connection open before the rotation is still served", exchange(keptOpen, "/kept/after"),
                containsString(" 200 "));
        assertThat("with the certificate it began with", serial(keptOpen), is(first.serial()));
        keptOpen.close();
        assertThat(Scrape.of(router.adminPort()).sum("insika_router_config_reloads_total", "result", "applied"),
                is(1.0));
    }

    @Test
    void h2ClientsConnectingWhileTheCertificateRotatesAreServedAndNewConnectionsGetTheNewCertificate()
            throws Exception {
        Issued first = CA.server(BigInteger.valueOf(0x4141), "EC");
        Issued second = CA.server(BigInteger.valueOf(0x4242), "EC");
        start(first);
        HttpClient kept = h2Client();
        HttpResponse<String> before = h2Post(kept, "kept-before");
        assertThat(before.version(), is(HttpClient.Version.HTTP_2));

        RotationUnderLoad rotation = new RotationUnderLoad();
        rotation.client("kept", n -> {
            HttpResponse<String> response = h2Post(kept, "kept-" + n);
            return new Served(response.statusCode() == 200 && response.version() == HttpClient.Version.HTTP_2,
                    response.statusCode() + " " + response.version(), null);
        });
        for (int i = 0; i < 2; i++) {
            int client = i;
            // a new client (and a new TLS context: no session resumed) per request: a new h2 connection
            rotation.client("fresh", n -> {
                HttpResponse<String> response = h2Post(h2Client(), "fresh-" + client + "-" + n);
                return new Served(response.statusCode() == 200 && response.version() == HttpClient.Version.HTTP_2,
                        response.statusCode() + " " + response.version(), serial(response));
            });
        }
        rotation.rotateTo(second, 20, 20);

        assertThat("no request failed", rotation.failures, empty());
        assertThat("every h2 connection made after the reload was presented the new certificate",
                rotation.seenAfterReload, is(Set.of(second.serial())));
        HttpResponse<String> after = h2Post(kept, "kept-after");
        assertThat("the h2 connection open before the rotation is still served", after.statusCode(), is(200));
        assertThat("with the certificate it began with", serial(after), is(first.serial()));
    }

    @Test
    void aNewKeyThatIsNotTheNewCertificatesIsRefusedCountedAndTheRunningPairKept() throws Exception {
        Issued first = CA.server(BigInteger.valueOf(0x3333), "EC");
        start(first);
        Issued other = CA.server();
        secret.publish(Map.of("tls.crt", TestCertificates.pem(CA.server().certificate()),
                "tls.key", TestCertificates.pem(other.key(), KeyFormat.PKCS8)));

        try (LogCapture log = LogCapture.of(ConfigReload.class)) {
            assertThat(reload.reload(), is(ConfigReload.Result.INVALID));
            assertThat(log.formatted(Level.WARNING), hasItem(containsString("server.tls.private-key: ["
                    + secret.file("tls.key") + "] is not the private key of the certificate in "
                    + secret.file("tls.crt"))));
        }

        try (SSLSocket socket = connect()) {
            assertThat(exchange(socket, "/after-refusal"), containsString(" 200 "));
            assertThat(serial(socket), is(first.serial()));
        }
        Scrape metrics = Scrape.of(router.adminPort());
        assertThat(metrics.sum("insika_router_config_reloads_total", "result", "invalid"), is(1.0));
        assertThat(metrics.sum("insika_router_config_last_reload_successful"), is(0.0));
    }

    @Test
    void turningTlsOffIsRefusedUntilARestart() throws Exception {
        start(CA.server());
        Files.writeString(dir.resolve("router.yaml"), "server: { host: 127.0.0.1, port: 0, admin-port: 0 }\n"
                + "backends: { static: [ \"" + backend.backend().uri() + "\" ] }\n");

        assertThat(reload.reload(), is(ConfigReload.Result.REFUSED));

        try (SSLSocket socket = connect()) {
            assertThat(exchange(socket, "/still-tls"), containsString(" 200 "));
        }
    }

    private void start(Issued issued) throws IOException {
        backend = TestBackend.start("backend");
        secret = new SecretVolume(dir.resolve("secret"));
        mount(issued);
        Path yaml = Files.writeString(dir.resolve("router.yaml"), "server: { host: 127.0.0.1, port: 0, admin-port: 0, http2: true,"
                + " tls: { certificate: " + secret.file("tls.crt") + ", private-key: " + secret.file("tls.key") + " } }\n"
                + "backends: { static: [ \"" + backend.backend().uri() + "\" ] }\n");
        RouterConfigLoader loader = new RouterConfigLoader(FixturePlugins.builtIn());
        RouterConfig config = loader.load(Optional.of(yaml), Map.of());
        router = Router.start(config, FixturePlugins.builtIn());
        reload = new ConfigReload(router, () -> loader.load(Optional.of(yaml), Map.of()));
    }

    // cert-manager's Secret as the kubelet mounts it: PKCS#1 / SEC1 keys, files swapped in one rename
    private void mount(Issued issued) throws IOException {
        secret.publish(Map.of("tls.crt", TestCertificates.pem(issued.certificate(), CA.certificate()),
                "tls.key", TestCertificates.pem(issued.key(), KeyFormat.TRADITIONAL)));
    }

    /** One request of a client under load: served or not, and the certificate its connection was presented. */
    @FunctionalInterface
    private interface Attempt {
        Served send(int n) throws Exception;
    }

    /** @param serial the certificate's, for a connection made for this request; null for a kept one */
    private record Served(boolean ok, Object what, BigInteger serial) {
    }

    /**
     * Clients that keep sending while the certificate rotates, each on a virtual thread, and what
     * they saw: failures, and the certificates new connections were presented after the reload.
     */
    private final class RotationUnderLoad {
        final List<String> failures = java.util.Collections.synchronizedList(new ArrayList<>());
        final Set<BigInteger> seenAfterReload = ConcurrentHashMap.newKeySet();
        private final AtomicBoolean running = new AtomicBoolean(true);
        private final AtomicBoolean reloaded = new AtomicBoolean(false);
        private final AtomicInteger newConnectionsAfterReload = new AtomicInteger();
        private final List<Thread> load = new ArrayList<>();

        void client(String kind, Attempt attempt) {
            load.add(Thread.ofVirtual().start(() -> {
                for (int n = 0; running.get(); n++) {
                    boolean afterReload = reloaded.get();
                    try {
                        Served served = attempt.send(n);
                        if (!served.ok()) {
                            failures.add(kind + ": " + served.what());
                        }
                        if (afterReload && served.serial() != null) {
                            seenAfterReload.add(served.serial());
                            newConnectionsAfterReload.incrementAndGet();
                        }
                    } catch (Exception e) {
                        failures.add(kind + ": " + e);
                    }
                }
            }));
        }

        /**
         * Once the clients have had this many requests served, rotates to the next pair and
         * reloads; once that many connections were made after it, stops the clients.
         */
        void rotateTo(Issued next, int requestsBefore, int connectionsAfter) throws Exception {
            Eventually.await(Duration.ofSeconds(20), () -> backend.hits.get() > requestsBefore,
                    () -> backend.hits + " requests");
            mount(next);
            assertThat(reload.reload(), is(ConfigReload.Result.APPLIED));
            reloaded.set(true);
            Eventually.await(Duration.ofSeconds(30), () -> newConnectionsAfterReload.get() > connectionsAfter,
                    () -> newConnectionsAfterReload + " new connections since the reload");
            running.set(false);
            for (Thread thread : load) {
                thread.join();
            }
        }
    }

    private SSLSocket connect() throws IOException {
        SSLSocket socket = (SSLSocket) TestCertificates.trusting(CA).getSocketFactory()
                .createSocket("127.0.0.1", router.port());
        socket.setSoTimeout(10_000);
        socket.startHandshake();
        return socket;
    }

    private static HttpClient h2Client() {
        return HttpClient.newBuilder().version(HttpClient.Version.HTTP_2).sslContext(TestCertificates.trusting(CA))
                .connectTimeout(Duration.ofSeconds(10)).build();
    }

    private HttpResponse<String> h2Post(HttpClient client, String user) throws Exception {
        return client.send(HttpRequest.newBuilder(URI.create("https://127.0.0.1:" + router.port() + "/v1/responses"))
                .timeout(Duration.ofSeconds(10)).POST(HttpRequest.BodyPublishers.ofString("{\"user\":\"" + user + "\"}"))
                .build(), HttpResponse.BodyHandlers.ofString());
    }

    private static BigInteger serial(HttpResponse<?> response) throws IOException {
        return ((X509Certificate) response.sslSession().orElseThrow().getPeerCertificates()[0]).getSerialNumber();
    }

    private static BigInteger serial(SSLSocket socket) throws IOException {
        return ((X509Certificate) socket.getSession().getPeerCertificates()[0]).getSerialNumber();
    }

    // One GET on a kept-alive connection: its head, its body read to its length
    private static String exchange(SSLSocket socket, String path) throws IOException {
        OutputStream out = socket.getOutputStream();
        out.write(("GET " + path + " HTTP/1.1\r\nHost: x\r\n\r\n").getBytes(StandardCharsets.US_ASCII));
        out.flush();
        InputStream in = socket.getInputStream();
        String head = String.valueOf(RawHttp.readHead(in));
        String length = head.lines().filter(line -> line.toLowerCase().startsWith("content-length:")).findFirst()
                .map(line -> line.substring(line.indexOf(':') + 1).strip()).orElse("0");
        in.readNBytes(Integer.parseInt(length));
        return head;
    }
}
