package io.insika.router.server.proxy;

import java.io.BufferedReader;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.net.HttpURLConnection;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.util.HexFormat;
import java.util.List;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import static org.hamcrest.MatcherAssert.assertThat;
import static org.hamcrest.Matchers.is;
import static org.hamcrest.Matchers.startsWith;

/** Memory per request is bounded by the peek, never by the body: 1 GiB through a 64 MiB heap. */
class LargeBodyMemoryTest {

    private static final long ONE_GIB = 1L << 30;
    private static TestBackend backend;
    private static Process router;
    private static int port;

    @BeforeAll
    static void start() throws Exception {
        backend = TestBackend.start("big");
        String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        router = new ProcessBuilder(java, "-Xmx64m", "-XX:+UseSerialGC", "-cp", System.getProperty("java.class.path"),
                StandaloneRouter.class.getName(), "http://127.0.0.1:" + backend.port())
                .redirectErrorStream(true)
                .start();
        BufferedReader output = new BufferedReader(new InputStreamReader(router.getInputStream(), StandardCharsets.UTF_8));
        for (String line = output.readLine(); line != null; line = output.readLine()) {
            if (line.startsWith("PORT ")) {
                port = Integer.parseInt(line.substring(5).trim());
                break;
            }
        }
        assertThat("router started", port > 0, is(true));
        Thread.ofVirtual().start(() -> output.lines().forEach(line -> { })); // keep its pipe drained
    }

    @AfterAll
    static void stop() throws Exception {
        router.destroy();
        router.waitFor(10, TimeUnit.SECONDS);
        backend.close();
    }

    @Test
    void aOneGibUploadPassesThroughA64MibHeapIntact() throws Exception {
        HttpURLConnection connection = (HttpURLConnection) URI.create("http://127.0.0.1:" + port + "/v1/responses")
                .toURL().openConnection();
        connection.setRequestMethod("POST");
        connection.setDoOutput(true);
        connection.setFixedLengthStreamingMode(ONE_GIB);
        connection.setRequestProperty("Content-Type", "application/json");
        MessageDigest sent = TestBackend.sha256();
        try (OutputStream out = connection.getOutputStream()) {
            byte[] head = "{\"user\":\"big-session\",\"blob\":\"".getBytes(StandardCharsets.US_ASCII);
            byte[] block = new byte[1 << 16];
            java.util.Arrays.fill(block, (byte) 'z');
            out.write(head);
            sent.update(head);
            long remaining = ONE_GIB - head.length - 2;
            while (remaining > 0) {
                int n = (int) Math.min(block.length, remaining);
                out.write(block, 0, n);
                sent.update(block, 0, n);
                remaining -= n;
            }
            byte[] tail = "\"}".getBytes(StandardCharsets.US_ASCII);
            out.write(tail);
            sent.update(tail);
        }
        assertThat(connection.getResponseCode(), is(200));
        String answer;
        try (InputStream in = connection.getInputStream()) {
            answer = new String(in.readAllBytes(), StandardCharsets.UTF_8);
        }
        assertThat(answer, is("big " + ONE_GIB + " " + HexFormat.of().formatHex(sent.digest())));
        assertThat("the router survived", router.isAlive(), is(true));
    }

    @Test
    void aOneGibDownloadStreamsThroughA64MibHeap() throws Exception {
        HttpURLConnection connection = (HttpURLConnection) URI.create(
                "http://127.0.0.1:" + port + "/bytes/" + ONE_GIB).toURL().openConnection();
        assertThat(connection.getResponseCode(), is(200));
        long total = 0;
        try (InputStream in = connection.getInputStream()) {
            byte[] buffer = new byte[1 << 16];
            for (int n = in.read(buffer); n >= 0; n = in.read(buffer)) {
                total += n;
            }
        }
        assertThat(total, is(ONE_GIB));
        assertThat(List.of(connection.getHeaderField("Content-Length")), is(List.of(String.valueOf(ONE_GIB))));
        assertThat(connection.getHeaderField("X-Backend"), startsWith("big"));
    }
}
