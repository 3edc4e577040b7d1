package io.insika.router.server.proxy;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import io.insika.router.server.testing.Eventually;
import io.insika.router.server.testing.RawH2;
import io.insika.router.server.testing.RawHttp;
import io.insika.router.server.testing.Scrape;
import io.insika.router.server.testing.TestProxySettings;

import static org.hamcrest.MatcherAssert.assertThat;
import static org.hamcrest.Matchers.containsString;
import static org.hamcrest.Matchers.is;
import static org.hamcrest.Matchers.startsWith;

/**
 * A client that stops sending its body part-way is cut after {@code client-body-timeout}, one
 * that stops reading its answer after {@code client-send-timeout}, and whatever its request held
 * (a backend connection above all) is released. A slow client that keeps moving is not.
 */
class ClientStallTest {

    private static final Duration TIMEOUT = Duration.ofMillis(300);

    private final ByteArrayOutputStream accessLog = new ByteArrayOutputStream();
    @RegisterExtension
    final Routers routers = new Routers();
    private RouterFixture router;

    private void start() {
        start(TestProxySettings.builder().clientBodyTimeout(TIMEOUT).accessLog(accessLog).build());
    }

    private void start(ProxySettings settings) {
        router = routers.withBackends(1, settings);
    }

    @Test
    void aClientThatStallsMidBodyIsCutAndItsBackendConnectionReleased() throws Exception {
        start();
        try (Socket client = stalledUpload("/studio/upload", 1_000, new byte[10])) {
            assertClosedWithoutAnswer(client);
        }
        awaitNoBackendConnection();
        Eventually.await(Duration.ofSeconds(5), () -> accessLog.toString(StandardCharsets.UTF_8).contains("error="),
                () -> "no access line");
        assertThat(accessLog.toString(StandardCharsets.UTF_8), containsString(" error=client-timeout"));
    }

    @Test
    void aClientThatStallsWhileTheKeyIsSoughtIsCut() throws Exception {
        start();
        try (Socket client = stalledUpload("/v1/responses", 1_000,
                "{\"input\":\"abc".getBytes(StandardCharsets.UTF_8))) {
            assertClosedWithoutAnswer(client);
        }
        assertThat(router.backends.getFirst().hits.get(), is(0));
    }

    @Test
    void aLargeUploadThatStallsIsCutToo() throws Exception {
        start();
        // past the 64 KiB written inline: the rest streams on its own thread
        try (Socket client = stalledUpload("/studio/upload", 10 << 20, new byte[200 * 1024])) {
            assertClosedWithoutAnswer(client);
        }
        awaitNoBackendConnection();
    }

    @Test
    void aSlowClientThatKeepsSendingIsNotCutByThePauseTimeout() throws Exception {
        Duration timeout = Duration.ofSeconds(1); // ten times each pause: a loaded machine oversleeps
        // 10 bytes a second is below the default rate floor (OverloadTest): here only pauses count
        start(TestProxySettings.builder().clientBodyTimeout(timeout).clientBodyMinRate(0).build());
        byte[] body = "twenty bytes, slowly".getBytes(StandardCharsets.UTF_8);
        try (Socket client = connect()) {
            OutputStream out = client.getOutputStream();
            out.write(("POST /studio/slow HTTP/1.1\r\nHost: test\r\nContent-Length: " + body.length + "\r\n\r\n")
                    .getBytes(StandardCharsets.US_ASCII));
            for (byte b : body) { // the whole upload takes twice the timeout
                out.write(b);
                out.flush();
                Thread.sleep(timeout.toMillis() / 10);
            }
            String head = RawHttp.readHead(client.getInputStream());
            assertThat(head, startsWith("HTTP/1.1 200"));
        }
    }

    @Test
    void aClientThatStopsReadingItsAnswerIsCutAndTheBackendFreed() throws Exception {
        start(TestProxySettings.builder().clientSendTimeout(TIMEOUT).accessLog(accessLog).build());
        try (Socket client = new Socket()) {
            client.setReceiveBufferSize(4096); // before connecting: a small window fills at once
            client.connect(new java.net.InetSocketAddress(InetAddress.getLoopbackAddress(), router.port()));
            client.setSoTimeout(15_000);
            client.getOutputStream().write("GET /bytes/268435456 HTTP/1.1\r\nHost: test\r\n\r\n"
                    .getBytes(StandardCharsets.US_ASCII));
            // reads nothing: the router's writes back up until its send timeout
            awaitNoBackendConnection();
            long received = 0;
            try {
                for (int n = client.getInputStream().read(new byte[65536]); n >= 0;
                     n = client.getInputStream().read(new byte[65536])) {
                    received += n;
                }
            } catch (IOException reset) {
                // closed with a reset: as good as a close
            }
            assertThat("the answer was cut, not sent whole", received < 268_435_456L, is(true));
        }
        Eventually.await(Duration.ofSeconds(5), () -> accessLog.toString(StandardCharsets.UTF_8).contains("error="),
                () -> "no access line");
        assertThat(accessLog.toString(StandardCharsets.UTF_8), containsString(" error=client-timeout"));
        assertThat(Scrape.of(router.adminPort()).sum("insika_router_client_send_timeouts_total"), is(1.0));
    }

    @Test
    void anHttp2StreamWhoseBodyStallsIsCutAndItsBackendConnectionReleased() throws Exception {
        start();
        try (RawH2 client = RawH2.connect(router.port())) {
            client.headers(1, false, RawH2.request("POST", "/studio/upload", "content-length", "1000"));
            client.data(1, false, new byte[10]); // and nothing more
            awaitNoBackendConnection();
            RawH2.Outcome outcome = client.await(1);
            assertThat(outcome.toString(), outcome.status() == 200, is(false));
        }
        Eventually.await(Duration.ofSeconds(5), () -> accessLog.toString(StandardCharsets.UTF_8).contains("error="),
                () -> "no access line");
        assertThat(accessLog.toString(StandardCharsets.UTF_8), containsString(" error=client-timeout"));
    }

    @Test
    void anHttp2ClientThatGrantsNoWindowForItsAnswerIsCutAndTheBackendFreed() throws Exception {
        start(TestProxySettings.builder().clientSendTimeout(TIMEOUT).accessLog(accessLog).build());
        try (RawH2 client = RawH2.connect(router.port())) {
            client.headers(1, true, RawH2.get("/bytes/268435456"));
            // reads what the router sends and grants no window: past the first 64 KiB its writes wait
            Thread reader = Thread.ofVirtual().start(() -> {
                try {
                    while (true) {
                        client.read();
                    }
                } catch (IOException closed) {
                    // the socket was closed
                }
            });
            awaitNoBackendConnection();
            client.close();
            reader.join(Duration.ofSeconds(5));
        }
        Eventually.await(Duration.ofSeconds(5), () -> accessLog.toString(StandardCharsets.UTF_8).contains("error="),
                () -> "no access line");
        assertThat(accessLog.toString(StandardCharsets.UTF_8), containsString(" error=client-timeout"));
        assertThat(Scrape.of(router.adminPort()).sum("insika_router_client_send_timeouts_total"), is(1.0));
    }

    private Socket stalledUpload(String path, int declaredLength, byte[] sentPart) throws IOException {
        Socket client = connect();
        OutputStream out = client.getOutputStream();
        out.write(("POST " + path + " HTTP/1.1\r\nHost: test\r\nContent-Type: application/json\r\nContent-Length: "
                + declaredLength + "\r\n\r\n").getBytes(StandardCharsets.US_ASCII));
        out.write(sentPart);
        out.flush();
        return client; // and sends nothing more
    }

    private Socket connect() throws IOException {
        Socket client = new Socket(InetAddress.getLoopbackAddress(), router.port());
        client.setSoTimeout(15_000); // far past the router's timeout: a hang fails the test instead of stalling it
        return client;
    }

    private static void assertClosedWithoutAnswer(Socket client) throws IOException {
        InputStream in = client.getInputStream();
        try {
            int first = in.read();
            assertThat("the router answered instead of closing: " + (char) first, first, is(-1));
        } catch (SocketTimeoutException e) {
            throw new AssertionError("the connection was still open after 15 s", e);
        } catch (IOException reset) {
            // closed with a reset: as good as a close for a client that stopped sending
        }
    }

    private void awaitNoBackendConnection() {
        Eventually.await(Duration.ofSeconds(5),
                () -> Scrape.of(router.adminPort()).sum("insika_router_backend_connections") == 0.0,
                () -> Scrape.of(router.adminPort()).matching("insika_router_backend_connections").toString());
    }
}
