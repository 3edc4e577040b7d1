package io.insika.router.server.proxy;

import java.io.IOException;
import java.io.InputStream;
import java.net.Socket;
import java.net.SocketException;
import java.net.SocketTimeoutException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

import io.insika.router.server.RouterServer;
import io.insika.router.server.ServerSettings;
import io.insika.router.server.testing.RawHttp;
import io.insika.router.server.testing.TestServers;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import io.insika.router.server.testing.TestProxySettings;

import static org.hamcrest.MatcherAssert.assertThat;
import static org.hamcrest.Matchers.is;
import static org.hamcrest.Matchers.startsWith;

/**
 * A client connection holds the router only as long as it does its part: a head arrives whole
 * within server.head-timeout of its first byte, and a kept connection waits for its next request
 * no longer than server.idle-timeout. Neither applies to a request being served.
 */
class ClientDeadlinesTest {

    private static final Duration HEAD_TIMEOUT = Duration.ofMillis(800);
    private static final Duration IDLE_TIMEOUT = Duration.ofMillis(1500);
    // the connection must be gone well within this: each check runs every quarter timeout
    private static final int CLOSED_WITHIN_MILLIS = 8_000;

    private static final int LIMIT = 4;

    private TestBackend backend;
    private RouterServer router;
    private RouterServer limited; // server.max-connections: LIMIT

    @BeforeEach
    void start() {
        backend = TestBackend.start("only");
        ServerSettings server = TestServers.settings(ServerSettings.DEFAULT_MAX_CONNECTIONS, HEAD_TIMEOUT, IDLE_TIMEOUT);
        router = RouterServer.start(server, RouterFixture.defaultRoutes(),
                RouterFixture.ketamaPool(List.of(backend.backend())), TestProxySettings.DEFAULTS);
        limited = RouterServer.start(TestServers.settings(LIMIT, HEAD_TIMEOUT, IDLE_TIMEOUT), RouterFixture.defaultRoutes(),
                RouterFixture.ketamaPool(List.of(backend.backend())), TestProxySettings.DEFAULTS);
    }

    @AfterEach
    void stop() {
        router.close();
        limited.close();
        backend.close();
    }

    @Test
    void aHeadTrickledPastTheHeadTimeoutLosesItsConnection() throws Exception {
        byte[] head = "GET /trickled HTTP/1.1\r\nHost: x\r\nX-Slow: ".getBytes(StandardCharsets.US_ASCII);
        try (Socket socket = new Socket("127.0.0.1", router.port())) {
            socket.setSoTimeout(100);
            long started = System.nanoTime();
            boolean closed = false;
            // a byte every 100 ms: never idle, never complete
            for (int i = 0; !closed && (System.nanoTime() - started) / 1_000_000 < CLOSED_WITHIN_MILLIS; i++) {
                try {
                    socket.getOutputStream().write(head[i % head.length] == '\n' ? 'x' : head[i % head.length]);
                    closed = socket.getInputStream().read() < 0;
                } catch (SocketTimeoutException quiet) {
                    // nothing yet: trickle on
                } catch (SocketException gone) {
                    closed = true;
                }
            }
            assertThat("the trickled head's connection was closed", closed, is(true));
        }
        assertThat("nothing of it reached a backend", backend.hits.get(), is(0));
    }

    @Test
    void aConnectionThatSendsNothingIsClosedAfterTheHeadTimeout() throws Exception {
        try (Socket socket = new Socket("127.0.0.1", router.port())) {
            socket.setSoTimeout(CLOSED_WITHIN_MILLIS);
            assertThat("the silent connection ends", drain(socket.getInputStream()), is(true));
        }
    }

    @Test
    void aConnectionThatSendsTooLittleToTellItsProtocolIsClosedAfterTheHeadTimeout() throws Exception {
        try (Socket socket = new Socket("127.0.0.1", router.port())) {
            socket.setSoTimeout(CLOSED_WITHIN_MILLIS);
            socket.getOutputStream().write('G');
            assertThat("the connection of one byte ends", drain(socket.getInputStream()), is(true));
        }
    }

    @Test
    void silentConnectionsPastTheLimitLeaveOnTheirDeadlineAndLetOthersIn() throws Exception {
        List<Socket> silent = new ArrayList<>();
        try {
            // every slot and the whole reserve past it: later clients wait in the listen backlog
            for (int i = 0; i < LIMIT + LeanHttp1Selector.OVER_LIMIT_RESERVE + 8; i++) {
                silent.add(new Socket("127.0.0.1", limited.port()));
            }
            try (Socket probe = new Socket("127.0.0.1", limited.port())) {
                probe.setSoTimeout(CLOSED_WITHIN_MILLIS);
                probe.getOutputStream().write("GET /up HTTP/1.1\r\nHost: x\r\n\r\n".getBytes(StandardCharsets.US_ASCII));
                assertThat("/up answers once the silent ones are gone",
                        RawHttp.readHead(probe.getInputStream()), startsWith("HTTP/1.1 200"));
            }
        } finally {
            for (Socket socket : silent) {
                socket.close();
            }
        }
    }

    @Test
    void aKeptConnectionIdlePastTheIdleTimeoutIsClosedAfterItsAnswer() throws Exception {
        try (Socket socket = new Socket("127.0.0.1", router.port())) {
            socket.setSoTimeout(CLOSED_WITHIN_MILLIS);
            socket.getOutputStream().write("GET /a HTTP/1.1\r\nHost: x\r\n\r\n".getBytes(StandardCharsets.US_ASCII));
            InputStream in = socket.getInputStream();
            assertThat(RawHttp.readHead(in), startsWith("HTTP/1.1 200"));

            assertThat("the idle connection ends", drain(in), is(true));
        }
    }

    @Test
    void aSlowAnswerIsNotIdleTime() throws Exception {
        // a 1 MiB answer the client leaves unread for longer than both timeouts: the relay is busy writing
        try (Socket socket = new Socket("127.0.0.1", router.port())) {
            socket.setSoTimeout(CLOSED_WITHIN_MILLIS);
            socket.getOutputStream().write(("GET /bytes/" + (1 << 20) + " HTTP/1.1\r\nHost: x\r\n\r\n")
                    .getBytes(StandardCharsets.US_ASCII));
            InputStream in = socket.getInputStream();
            Thread.sleep(IDLE_TIMEOUT.multipliedBy(2).toMillis()); // the answer waits in the socket buffers
            assertThat(RawHttp.readHead(in), startsWith("HTTP/1.1 200"));
        }
    }

    @Test
    void manyTrickledHeadsDoNotShutOutOtherClients() throws Exception {
        List<Socket> slow = new ArrayList<>();
        try {
            for (int i = 0; i < 50; i++) {
                Socket socket = new Socket("127.0.0.1", router.port());
                socket.getOutputStream().write("GET /held HTTP/1.1\r\nHo".getBytes(StandardCharsets.US_ASCII));
                slow.add(socket);
            }
            try (Socket other = new Socket("127.0.0.1", router.port())) {
                other.setSoTimeout(5_000);
                other.getOutputStream().write("GET /up HTTP/1.1\r\nHost: x\r\n\r\n".getBytes(StandardCharsets.US_ASCII));
                assertThat(RawHttp.readHead(other.getInputStream()), startsWith("HTTP/1.1 200"));
            }
            for (Socket socket : slow) {
                socket.setSoTimeout(CLOSED_WITHIN_MILLIS);
                assertThat("a held head's connection is closed", drain(socket.getInputStream()), is(true));
            }
        } finally {
            for (Socket socket : slow) {
                socket.close();
            }
        }
    }

    // Reads to the end of the stream: true when the router closed it (end or reset) in time
    private static boolean drain(InputStream in) throws IOException {
        try {
            while (in.read() >= 0) {
                // what is left of an answer
            }
            return true;
        } catch (SocketTimeoutException e) {
            return false;
        } catch (SocketException reset) {
            return true;
        }
    }
}
