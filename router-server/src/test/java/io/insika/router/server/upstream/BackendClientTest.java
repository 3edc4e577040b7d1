package io.insika.router.server.upstream;

import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.time.Duration;
import java.util.Set;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

import io.insika.router.api.Backend;
import io.insika.router.server.testing.ScriptedBackend;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import static org.hamcrest.MatcherAssert.assertThat;
import static org.hamcrest.Matchers.instanceOf;
import static org.hamcrest.Matchers.is;
import static org.hamcrest.Matchers.not;
import static org.hamcrest.Matchers.sameInstance;
import static org.junit.jupiter.api.Assertions.assertThrows;

/** The backend connection pool on real loopback sockets: reuse, the liveness probe, idle expiry, the watchdog. */
@Timeout(30) // a broken watchdog would otherwise block a read forever
class BackendClientTest {

    private static final String OK = "HTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\nok";

    private ScriptedBackend backend;
    private BackendClient pool;
    // whether the pool of backends holds the scripted one; a test takes it away to see its connections go
    private volatile boolean backendInPool = true;

    private Set<String> current() {
        return backend != null && backendInPool ? Set.of(backend.backend().id()) : Set.of();
    }

    @AfterEach
    void stop() {
        if (pool != null) {
            pool.close();
        }
        if (backend != null) {
            backend.close();
        }
    }

    @Test
    void aReleasedConnectionIsTheNextOneHandedOut() throws Exception {
        backend = ScriptedBackend.answering(head -> ScriptedBackend.Answer.keep(OK));
        pool = new BackendClient(Duration.ofSeconds(5), this::current);
        BackendClient.Lease first = pool.acquire(backend.backend());
        exchange(first.connection());
        pool.release(first.connection());

        BackendClient.Lease second = pool.acquire(backend.backend());
        assertThat(second.fresh(), is(false));
        assertThat(second.connection(), sameInstance(first.connection()));
        assertThat(backend.connections.get(), is(1));
    }

    @Test
    void aConnectionTheBackendClosedWhileIdleIsNeverHandedOut() throws Exception {
        backend = ScriptedBackend.answering(head -> ScriptedBackend.Answer.thenClose(OK));
        pool = new BackendClient(Duration.ofSeconds(5), this::current);
        BackendClient.Lease first = pool.acquire(backend.backend());
        exchange(first.connection());
        pool.release(first.connection()); // as if the answer had not said so: the probe must catch it
        waitUntil(() -> !first.connection().isReusable(System.nanoTime(), false));

        BackendClient.Lease second = pool.acquire(backend.backend());
        assertThat(second.fresh(), is(true));
        assertThat(first.connection().isClosed(), is(true));
    }

    @Test
    void aConnectionIsProbedOnlyOnceItWasIdleForTheProbeWindow() throws Exception {
        backend = ScriptedBackend.answering(head -> ScriptedBackend.Answer.thenClose(OK));
        pool = new BackendClient(Duration.ofSeconds(5), this::current);
        BackendConnection connection = pool.acquire(backend.backend()).connection();
        exchange(connection);
        pool.release(connection); // as if the answer had not said so
        long released = connection.idleSince();
        long probed = released + BackendConnection.PROBE_AFTER;
        waitUntil(() -> !connection.isReusable(probed, false)); // the backend's close has arrived

        assertThat("taken again within the window: not probed, the backend's close not seen",
                connection.isReusable(probed - 1, false), is(true));
        assertThat("unless asked to probe anyway", connection.isReusable(probed - 1, true), is(false));
    }

    @Test
    void aConnectionTakenUnprobedThatFailsBeforeItsAnswerWhileTheBackendRefusesConnectionsIsTheBackendGone()
            throws Exception {
        backend = ScriptedBackend.answering(head -> ScriptedBackend.Answer.thenClose(OK));
        pool = new BackendClient(Duration.ofSeconds(5), this::current);
        BackendConnection kept = keptAndClosedByTheBackend();
        backend.close(); // the backend stopped: its listener is gone with its connections

        Exchange exchange = takenWithinTheProbeWindow(kept);
        assertThrows(BackendGoneException.class, exchange::readHead);
    }

    @Test
    void aConnectionTakenUnprobedThatFailsBeforeItsAnswerWhileTheBackendStillAcceptsHasFailedAsBefore()
            throws Exception {
        backend = ScriptedBackend.answering(head -> ScriptedBackend.Answer.thenClose(OK));
        pool = new BackendClient(Duration.ofSeconds(5), this::current);
        BackendConnection kept = keptAndClosedByTheBackend();

        Exchange exchange = takenWithinTheProbeWindow(kept);
        IOException failure = assertThrows(IOException.class, exchange::readHead);
        assertThat(failure, not(instanceOf(BackendGoneException.class)));
        exchange.discard();
        assertThat("the connection the look made is kept", pool.openCount(), is(1));
        assertThat(pool.acquire(backend.backend()).fresh(), is(false));
    }

    // A kept connection the backend has closed, its close arrived: a probe would see it
    private BackendConnection keptAndClosedByTheBackend() throws Exception {
        BackendConnection connection = pool.acquire(backend.backend()).connection();
        exchange(connection);
        pool.release(connection); // as if the answer had not said so
        waitUntil(() -> !connection.isReusable(System.nanoTime(), true));
        return connection;
    }

    // Released, as far as the window can tell, a moment ago: taken again without a look
    private Exchange takenWithinTheProbeWindow(BackendConnection kept) throws IOException {
        kept.idleSince(System.nanoTime() + Duration.ofMinutes(1).toNanos());
        Exchange exchange = pool.exchange(backend.backend());
        assertThat(exchange.fresh(), is(false));
        assertThat(kept.takenUnprobed(), is(true));
        RequestWriter writer = exchange.request();
        writer.requestLine("GET", "/");
        writer.header("Host", "t");
        writer.endHead(RequestWriter.NO_BODY);
        writer.finish(); // the kernel takes it; the backend's answer to it is a reset
        return exchange;
    }

    @Test
    void idleConnectionsAreClosedAfterTheIdleLimit() throws Exception {
        backend = ScriptedBackend.answering(head -> ScriptedBackend.Answer.keep(OK));
        pool = new BackendClient(Duration.ofSeconds(5), Duration.ofMillis(200), this::current);
        BackendClient.Lease lease = pool.acquire(backend.backend());
        exchange(lease.connection());
        pool.release(lease.connection());
        assertThat(pool.openCount(), is(1));

        waitUntil(() -> pool.openCount() == 0);
        assertThat(lease.connection().isClosed(), is(true));
        assertThat(pool.acquire(backend.backend()).fresh(), is(true));
    }

    @Test
    void idleConnectionsToABackendThatLeftThePoolAreClosedAtOnce() throws Exception {
        backend = ScriptedBackend.answering(head -> ScriptedBackend.Answer.keep(OK));
        pool = new BackendClient(Duration.ofMillis(400), Duration.ofMinutes(5), this::current);
        BackendClient.Lease lease = pool.acquire(backend.backend());
        exchange(lease.connection());
        pool.release(lease.connection());
        Thread.sleep(300); // a few watchdog ticks: still wanted
        assertThat(lease.connection().isClosed(), is(false));

        backendInPool = false; // discovery dropped it
        waitUntil(() -> lease.connection().isClosed());
        assertThat(pool.openCount(), is(0));
    }

    @Test
    void theWatchdogEndsAReadTheBackendNeverAnswersAsATimeout() throws Exception {
        try (ServerSocket silent = new ServerSocket(0, 50, InetAddress.getLoopbackAddress())) { // accepts (the kernel does) and never writes
            pool = new BackendClient(Duration.ofMillis(200), this::current);
            BackendClient.Lease lease = pool.acquire(Backend.parse("http://127.0.0.1:" + silent.getLocalPort()));
            long started = System.nanoTime();
            IOException failure = assertThrows(IOException.class, () -> lease.connection().fill());
            assertThat(failure, instanceOf(SocketTimeoutException.class));
            assertThat(lease.connection().timedOut(), is(true));
            assertThat(System.nanoTime() - started >= Duration.ofMillis(200).toNanos(), is(true));
            assertThat(pool.openCount(), is(0));
        }
    }

    @Test
    void anHttpsBackendThatNeverHandshakesFailsWithinTheConnectTimeout() throws Exception {
        try (ServerSocket silent = new ServerSocket(0, 50, InetAddress.getLoopbackAddress())) { // TCP yes, TLS never
            pool = new BackendClient(Duration.ofMillis(300), this::current);
            long started = System.nanoTime();
            assertThrows(IOException.class, () -> pool.acquire(Backend.parse("https://127.0.0.1:" + silent.getLocalPort())));
            assertThat(System.nanoTime() - started < Duration.ofSeconds(10).toNanos(), is(true));
            assertThat(pool.openCount(), is(0));
        }
    }

    @Test
    void aRefusedConnectFailsAtOnce() throws Exception {
        int port;
        try (ServerSocket closed = new ServerSocket(0, 50, InetAddress.getLoopbackAddress())) {
            port = closed.getLocalPort();
        }
        pool = new BackendClient(Duration.ofSeconds(5), this::current);
        int refusedPort = port;
        assertThrows(IOException.class, () -> pool.acquire(Backend.parse("http://127.0.0.1:" + refusedPort)));
        assertThat(pool.openCount(), is(0));
    }

    @Test
    void aWriteTheSocketRefusedCountsAsNothingSentSoTheRequestMayGoOnAFreshConnection() throws Exception {
        CountDownLatch resetNow = new CountDownLatch(1);
        try (ServerSocket server = new ServerSocket(0, 50, InetAddress.getLoopbackAddress())) {
            Thread.ofVirtual().start(() -> {
                try (Socket socket = server.accept()) {
                    resetNow.await(5, TimeUnit.SECONDS);
                    socket.setSoLinger(true, 0); // close with a reset, as a backend restarting
                } catch (IOException | InterruptedException e) {
                    // the test fails on its own assertion
                }
            });
            pool = new BackendClient(Duration.ofSeconds(5), this::current);
            Exchange exchange = pool.exchange(Backend.parse("http://127.0.0.1:" + server.getLocalPort()));
            resetNow.countDown(); // between the reuse check and the write
            Thread.sleep(300); // the reset has arrived
            RequestWriter writer = exchange.request();
            writer.requestLine("GET", "/");
            writer.header("Host", "x");
            writer.endHead(RequestWriter.NO_BODY);
            assertThrows(IOException.class, writer::finish);
            assertThat("nothing of the request left", writer.started(), is(false));
        }
    }

    // One GET through the connection, its answer read to the end.
    private static void exchange(BackendConnection connection) throws IOException {
        RequestWriter writer = new RequestWriter(connection);
        writer.requestLine("GET", "/");
        writer.header("Host", "t");
        writer.endHead(RequestWriter.NO_BODY);
        writer.finish();
        ResponseHead head = ResponseHead.read(connection);
        ResponseBody body = ResponseBody.of(connection, head, false);
        assertThat(new String(body.readAllBytes()), is("ok"));
        assertThat(body.complete(), is(true));
    }

    private static void waitUntil(java.util.function.BooleanSupplier condition) throws InterruptedException {
        long deadline = System.nanoTime() + Duration.ofSeconds(10).toNanos();
        while (!condition.getAsBoolean()) {
            assertThat("condition not met within 10 s", System.nanoTime() < deadline, is(true));
            Thread.sleep(10);
        }
    }
}
