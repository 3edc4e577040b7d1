package io.insika.router.server.proxy;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.time.Duration;
import java.util.List;
import java.util.Random;
import java.util.function.BiConsumer;

import io.insika.router.server.RouterServer;
import io.insika.router.server.testing.RawHttp;
import io.insika.router.server.testing.TestServers;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import io.insika.router.server.testing.TestProxySettings;

import static org.hamcrest.MatcherAssert.assertThat;
import static org.hamcrest.Matchers.containsString;
import static org.hamcrest.Matchers.is;
import static org.hamcrest.Matchers.startsWith;

/**
 * A large upload streams to the backend while its answer is read, as it arrives: a backend that
 * answers before reading the body (a 413) is heard at once, and one that answers while it reads
 * (an echo) never deadlocks against the router.
 */
@Timeout(60)
class FullDuplexTest {

    private static final int BODY = 8 * 1024 * 1024;
    // More than the loopback socket buffers of both hops can hold, so waiting for the upload to
    // end before reading the echo would deadlock.
    private static final int ECHO_BODY = 48 * 1024 * 1024;

    private ServerSocket backend;
    private RouterServer router;

    @AfterEach
    void stop() throws IOException {
        if (router != null) {
            router.close();
        }
        if (backend != null) {
            backend.close();
        }
    }

    // The backend timeout is short: a router that waited for the whole upload to go out first
    // would sit blocked and answer 504 instead of what the backend said.
    private void start(BiConsumer<InputStream, OutputStream> behaviour) throws IOException {
        backend = new ServerSocket(0, 50, InetAddress.getLoopbackAddress());
        Thread.ofVirtual().start(() -> {
            while (!backend.isClosed()) {
                try {
                    Socket socket = backend.accept();
                    Thread.ofVirtual().start(() -> {
                        try (socket) {
                            behaviour.accept(socket.getInputStream(), socket.getOutputStream());
                        } catch (IOException | RuntimeException ignored) {
                            // the test's assertions say what mattered
                        }
                    });
                } catch (IOException e) {
                    return;
                }
            }
        });
        router = TestServers.start(RouterFixture.defaultRoutes(),
                RouterFixture.ketamaPool(List.of(io.insika.router.api.Backend.parse(
                        "http://127.0.0.1:" + backend.getLocalPort()))),
                TestProxySettings.builder().backendTimeout(Duration.ofSeconds(2)).build());
    }

    @Test
    void aBackendThatRefusesAnUploadBeforeReadingItIsHeard() throws Exception {
        start((in, out) -> {
            try {
                RawHttp.readHead(in);
                out.write("HTTP/1.1 413 Content Too Large\r\nContent-Length: 8\r\nConnection: close\r\n\r\ntoo big!"
                        .getBytes(StandardCharsets.US_ASCII));
                out.flush();
                Thread.sleep(5_000); // holds the connection open, never reading the body
            } catch (IOException | InterruptedException e) {
                // done
            }
        });
        try (Socket client = new Socket("127.0.0.1", router.port())) {
            client.setSoTimeout(20_000);
            OutputStream out = client.getOutputStream();
            Thread.ofVirtual().start(() -> {
                try {
                    out.write(("POST /upload HTTP/1.1\r\nHost: t\r\nContent-Length: " + BODY + "\r\n\r\n")
                            .getBytes(StandardCharsets.US_ASCII));
                    out.write(new byte[BODY]);
                } catch (IOException ignored) {
                    // the router may close before all of it was sent
                }
            });
            String answer = new String(client.getInputStream().readAllBytes(), StandardCharsets.ISO_8859_1);
            assertThat(answer, startsWith("HTTP/1.1 413"));
            assertThat(answer, containsString("too big!"));
        }
    }

    @Test
    void aBackendThatAnswersWhileItReadsGetsTheWholeBodyAndTheClientTheWholeEcho() throws Exception {
        start((in, out) -> {
            try {
                RawHttp.readHead(in);
                out.write("HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n".getBytes(StandardCharsets.US_ASCII));
                byte[] buffer = new byte[64 * 1024];
                long left = ECHO_BODY;
                while (left > 0) {
                    int n = in.read(buffer, 0, (int) Math.min(buffer.length, left));
                    if (n < 0) {
                        return;
                    }
                    left -= n;
                    out.write((Integer.toHexString(n) + "\r\n").getBytes(StandardCharsets.US_ASCII));
                    out.write(buffer, 0, n);
                    out.write("\r\n".getBytes(StandardCharsets.US_ASCII));
                }
                out.write("0\r\n\r\n".getBytes(StandardCharsets.US_ASCII));
                out.flush();
            } catch (IOException e) {
                // the assertions say what mattered
            }
        });
        byte[] body = new byte[ECHO_BODY];
        new Random(3).nextBytes(body);
        try (Socket client = new Socket("127.0.0.1", router.port())) {
            client.setSoTimeout(20_000);
            OutputStream out = client.getOutputStream();
            Thread.ofVirtual().start(() -> {
                try {
                    out.write(("POST /echo HTTP/1.1\r\nHost: t\r\nContent-Length: " + ECHO_BODY + "\r\n\r\n")
                            .getBytes(StandardCharsets.US_ASCII));
                    out.write(body);
                    out.flush();
                } catch (IOException ignored) {
                    // the read below fails the test
                }
            });
            InputStream in = client.getInputStream();
            assertThat(RawHttp.readHead(in), startsWith("HTTP/1.1 200"));
            byte[] echoed = readChunked(in);
            MessageDigest sha = MessageDigest.getInstance("SHA-256");
            assertThat(MessageDigest.isEqual(sha.digest(echoed), MessageDigest.getInstance("SHA-256").digest(body)),
                    is(true));
        }
    }

    private static byte[] readChunked(InputStream in) throws IOException {
        ByteArrayOutputStream body = new ByteArrayOutputStream();
        while (true) {
            String size = line(in);
            int n = Integer.parseInt(size.split(";")[0].strip(), 16);
            if (n == 0) {
                line(in);
                return body.toByteArray();
            }
            body.write(in.readNBytes(n));
            line(in);
        }
    }

    private static String line(InputStream in) throws IOException {
        StringBuilder line = new StringBuilder();
        for (int b = in.read(); b != '\n'; b = in.read()) {
            if (b < 0) {
                throw new IOException("closed mid-line");
            }
            if (b != '\r') {
                line.append((char) b);
            }
        }
        return line.toString();
    }
}
