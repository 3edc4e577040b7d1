package io.insika.router.distribution;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.Socket;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.KeyStore;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

import javax.net.ssl.KeyManagerFactory;
import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLServerSocket;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * An https backend, trusted the way configuration.md tells an operator to: a trust store named
 * in {@code INSIKA_ROUTER_JAVA_OPTS} (or {@code conf/jvm.options}). The certificate is made by
 * the JDK's keytool for this run, for {@code localhost} and {@code 127.0.0.1}.
 */
class TlsBackendTest {

    private static final String PASSWORD = "changeit";

    private static Path work;
    private static SSLServerSocket backend;
    private static final AtomicInteger CONNECTIONS = new AtomicInteger();
    private static RouterProcess router;

    @BeforeAll
    static void start() throws Exception {
        work = Files.createTempDirectory(Files.createDirectories(UnpackedDistribution.WORK), "tls-"); // under target/
        Path keys = work.resolve("backend.p12");
        Path trust = work.resolve("trust.p12");
        Path cert = work.resolve("backend.pem");
        keytool("-genkeypair", "-alias", "backend", "-keyalg", "EC", "-groupname", "secp256r1", "-validity", "2",
                "-dname", "CN=localhost", "-ext", "san=dns:localhost,ip:127.0.0.1",
                "-keystore", keys.toString(), "-storetype", "PKCS12", "-storepass", PASSWORD);
        keytool("-exportcert", "-rfc", "-alias", "backend", "-file", cert.toString(),
                "-keystore", keys.toString(), "-storepass", PASSWORD);
        keytool("-importcert", "-noprompt", "-alias", "backend", "-file", cert.toString(),
                "-keystore", trust.toString(), "-storetype", "PKCS12", "-storepass", PASSWORD);

        backend = tlsServer(keys);
        Thread.ofVirtual().start(TlsBackendTest::accept);

        UnpackedDistribution dist = UnpackedDistribution.unpack();
        Path config = dist.configForUris(List.of(URI.create("https://localhost:" + backend.getLocalPort())), "");
        router = RouterProcess.start(dist, Map.of("INSIKA_ROUTER_JAVA_OPTS",
                        "-Djavax.net.ssl.trustStore=" + trust + " -Djavax.net.ssl.trustStorePassword=" + PASSWORD),
                "--config", config.toString()).awaitListening();
    }

    @AfterAll
    static void stop() throws IOException {
        if (router != null) {
            router.close();
        }
        if (backend != null) {
            backend.close();
        }
    }

    @Test
    void requestsReachAnHttpsBackendOverKeptConnections() {
        for (int i = 0; i < 5; i++) {
            var response = Http.postJson(router.port(), "/v1/responses", "{\"user\":\"tls-" + i + "\"}");
            assertEquals(200, response.statusCode());
            assertEquals("tls-backend", response.body());
        }
        assertEquals(1, CONNECTIONS.get(), "one TLS connection, kept alive");
    }

    private static SSLServerSocket tlsServer(Path keys) throws Exception {
        KeyStore store = KeyStore.getInstance("PKCS12");
        try (InputStream in = Files.newInputStream(keys)) {
            store.load(in, PASSWORD.toCharArray());
        }
        KeyManagerFactory managers = KeyManagerFactory.getInstance(KeyManagerFactory.getDefaultAlgorithm());
        managers.init(store, PASSWORD.toCharArray());
        SSLContext context = SSLContext.getInstance("TLS");
        context.init(managers.getKeyManagers(), null, null);
        return (SSLServerSocket) context.getServerSocketFactory().createServerSocket(0, 50, InetAddress.getLoopbackAddress());
    }

    // A minimal keep-alive HTTP/1.1 responder: reads each head and Content-Length body, answers its name.
    private static void accept() {
        while (!backend.isClosed()) {
            try {
                Socket socket = backend.accept();
                CONNECTIONS.incrementAndGet();
                Thread.ofVirtual().start(() -> serve(socket));
            } catch (IOException e) {
                return;
            }
        }
    }

    private static void serve(Socket socket) {
        try (socket) {
            InputStream in = socket.getInputStream();
            OutputStream out = socket.getOutputStream();
            while (true) {
                String head = readHead(in);
                if (head == null) {
                    return;
                }
                int length = head.lines().filter(l -> l.toLowerCase().startsWith("content-length:"))
                        .map(l -> Integer.parseInt(l.substring(15).strip())).findFirst().orElse(0);
                in.readNBytes(length);
                out.write("HTTP/1.1 200 OK\r\nContent-Length: 11\r\n\r\ntls-backend".getBytes(StandardCharsets.US_ASCII));
                out.flush();
            }
        } catch (IOException e) {
            // the router closed the connection
        }
    }

    private static String readHead(InputStream in) throws IOException {
        ByteArrayOutputStream head = new ByteArrayOutputStream();
        while (!head.toString(StandardCharsets.ISO_8859_1).endsWith("\r\n\r\n")) {
            int b = in.read();
            if (b < 0) {
                return null;
            }
            head.write(b);
        }
        return head.toString(StandardCharsets.ISO_8859_1);
    }

    private static void keytool(String... args) throws Exception {
        List<String> command = new java.util.ArrayList<>();
        command.add(Path.of(System.getProperty("java.home"), "bin", "keytool").toString());
        command.addAll(List.of(args));
        Process process = new ProcessBuilder(command).redirectErrorStream(true).start();
        String output = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        if (!process.waitFor(60, TimeUnit.SECONDS) || process.exitValue() != 0) {
            throw new IllegalStateException("keytool " + String.join(" ", args) + " failed: " + output);
        }
    }
}
