package io.insika.router.distribution;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.math.BigInteger;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.security.KeyStore;
import java.security.cert.CertificateFactory;
import java.security.cert.X509Certificate;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLSocket;
import javax.net.ssl.TrustManagerFactory;

import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

/**
 * HTTPS on the unpacked distribution, configured by environment variables as in a Kubernetes
 * Deployment: certificates made by openssl, a renewal swapped in as the kubelet swaps a Secret
 * and picked up by the watch with no signal, and a key that is not the certificate's stopping
 * the start with the file named.
 */
class HttpsTest {

    private final UnpackedDistribution dist = UnpackedDistribution.unpack();

    @Test
    void aRenewedCertificateSwappedInIsServedToNewConnectionsWithoutASignal() throws Exception {
        Path work = Files.createTempDirectory(UnpackedDistribution.WORK, "https");
        Path first = certificate(work.resolve("gen-1"), "0x1111");
        Path second = certificate(work.resolve("gen-2"), "0x2222");
        Path mounted = work.resolve("secret");
        Files.createSymbolicLink(mounted, first.getFileName());
        Path[] trusted = {first.resolve("tls.crt"), second.resolve("tls.crt")};
        SSLContext trusting = trusting(trusted);
        Map<String, String> tls = Map.of("INSIKA_ROUTER_TLS_CERTIFICATE", mounted.resolve("tls.crt").toString(),
                "INSIKA_ROUTER_TLS_PRIVATE_KEY", mounted.resolve("tls.key").toString());
        try (WhoAmIBackend one = new WhoAmIBackend("one")) {
            Path config = dist.configFor(List.of(one), "reload: { watch-interval: 100ms }");
            try (RouterProcess router = RouterProcess.start(dist, tls, "--config", config.toString()).awaitListening()) {
                assertTrue(router.stderr().contains("listening on https://"), router.stderr());
                assertEquals(BigInteger.valueOf(0x1111), presented(trusted, router.port()));
                assertEquals("one", post(trusting, router.port()));

                // both files change in one rename, as the kubelet updates a mounted Secret
                Path swap = work.resolve("secret.new");
                Files.createSymbolicLink(swap, second.getFileName());
                Files.move(swap, mounted, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
                await(router, "TLS: new handshakes present " + mounted.resolve("tls.crt"));

                assertEquals(BigInteger.valueOf(0x2222), presented(trusted, router.port()));
                assertEquals("one", post(trusting, router.port()));
                String metrics = Http.get(router.adminPort(), "/observe/metrics", Map.of()).body();
                assertTrue(metrics.contains("insika_router_config_reloads_total{result=\"applied\"} 1.0"), metrics);

                // check --against: the same files change nothing; without them TLS would end: a restart's job
                String admin = "http://127.0.0.1:" + router.adminPort();
                RouterProcess.Result same = RouterProcess.run(dist, tls, "check", "--config", config.toString(),
                        "--against", admin);
                RouterProcess.Result plain = RouterProcess.run(dist, Map.of(), "check", "--config", config.toString(),
                        "--against", admin);
                assertTrue(same.stdout().contains("a reload would change nothing"), same.stdout() + same.stderr());
                assertTrue(plain.stdout().contains("a reload would be refused: only a restart changes"
                        + " server.tls.certificate"), plain.stdout() + plain.stderr());
            }
        }
    }

    @Test
    void aKeyThatIsNotTheCertificatesStopsTheStartNamingTheFile() throws Exception {
        Path work = Files.createTempDirectory(UnpackedDistribution.WORK, "https");
        Path first = certificate(work.resolve("a"), "0x1");
        Path second = certificate(work.resolve("b"), "0x2");

        RouterProcess.Result refused = RouterProcess.run(dist, Map.of(
                "INSIKA_ROUTER_BACKENDS", "http://127.0.0.1:9292",
                "INSIKA_ROUTER_TLS_CERTIFICATE", first.resolve("tls.crt").toString(),
                "INSIKA_ROUTER_TLS_PRIVATE_KEY", second.resolve("tls.key").toString()), "check");

        assertNotEquals(0, refused.exitCode(), refused.stdout());
        assertTrue(refused.stderr().contains("INSIKA_ROUTER_TLS_PRIVATE_KEY: [" + second.resolve("tls.key")
                + "] is not the private key of the certificate in " + first.resolve("tls.crt")), refused.stderr());
    }

    // A self-signed EC certificate for 127.0.0.1 with this serial: DIR/tls.crt and DIR/tls.key (PKCS#8)
    private static Path certificate(Path dir, String serial) throws Exception {
        Files.createDirectories(dir);
        openssl("req", "-x509", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:P-256", "-nodes",
                "-keyout", dir.resolve("tls.key").toString(), "-out", dir.resolve("tls.crt").toString(),
                "-days", "2", "-subj", "/CN=router", "-addext", "subjectAltName=IP:127.0.0.1", "-set_serial", serial);
        return dir;
    }

    private static void openssl(String... args) throws Exception {
        if (!Files.isExecutable(Path.of("/usr/bin/openssl"))) {
            fail("openssl is not installed, and this test makes its certificates with it: apt-get install openssl"
                    + " (tools/ci-deps.sh does this on CI)");
        }
        List<String> command = new java.util.ArrayList<>(List.of("/usr/bin/openssl"));
        command.addAll(List.of(args));
        Process process = new ProcessBuilder(command).redirectErrorStream(true).start();
        String output = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        if (!process.waitFor(60, TimeUnit.SECONDS) || process.exitValue() != 0) {
            throw new IllegalStateException("openssl " + String.join(" ", args) + " failed: " + output);
        }
    }

    private static SSLContext trusting(Path... certificates) throws Exception {
        KeyStore trust = KeyStore.getInstance("PKCS12");
        trust.load(null, null);
        CertificateFactory factory = CertificateFactory.getInstance("X.509");
        for (int i = 0; i < certificates.length; i++) {
            trust.setCertificateEntry("c" + i, factory.generateCertificate(
                    new ByteArrayInputStream(Files.readAllBytes(certificates[i]))));
        }
        TrustManagerFactory trustFactory = TrustManagerFactory.getInstance("PKIX");
        trustFactory.init(trust);
        SSLContext context = SSLContext.getInstance("TLS");
        context.init(null, trustFactory.getTrustManagers(), null);
        return context;
    }

    // The serial a new connection is shown: a new context each time, so no session is resumed
    private static BigInteger presented(Path[] trusted, int port) throws Exception {
        try (SSLSocket socket = (SSLSocket) trusting(trusted).getSocketFactory().createSocket("127.0.0.1", port)) {
            socket.startHandshake();
            return ((X509Certificate) socket.getSession().getPeerCertificates()[0]).getSerialNumber();
        }
    }

    private static String post(SSLContext trusting, int port) throws IOException, InterruptedException {
        HttpClient client = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).sslContext(trusting).build();
        return client.send(HttpRequest.newBuilder(URI.create("https://127.0.0.1:" + port + "/v1/responses"))
                .timeout(Duration.ofSeconds(20)).POST(HttpRequest.BodyPublishers.ofString("{\"user\":\"u\"}")).build(),
                HttpResponse.BodyHandlers.ofString()).body();
    }

    private static void await(RouterProcess router, String line) {
        long deadline = System.nanoTime() + 20_000_000_000L;
        while (!router.stderr().contains(line)) {
            assertTrue(router.isAlive(), "the router exited: " + router.stderr());
            assertTrue(System.nanoTime() < deadline, "no \"" + line + "\" in " + router.stderr());
            RouterProcess.sleep(50);
        }
    }
}
