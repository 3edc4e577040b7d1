package io.insika.router.server.proxy;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.Test;

import static org.hamcrest.MatcherAssert.assertThat;
import static org.hamcrest.Matchers.instanceOf;
import static org.hamcrest.Matchers.is;

/**
 * The watchdog sees every blocked call, however many block at once (past its slots, the rest
 * are watched all the same), and forgets each one as it returns.
 */
class ClientStallWatchdogTest {

    private static final Duration TIMEOUT = Duration.ofMillis(200);
    // long enough that every stalled read has begun before the first is cut: all block at once
    private static final Duration STALL_TIMEOUT = Duration.ofSeconds(1);

    @Test
    void everyStalledReadIsCutEvenWithMoreAtOnceThanSlots() throws Exception {
        int stalled = ClientStallWatchdog.SLOTS + 44;
        List<Socket> sockets = new ArrayList<>();
        // closed in reverse: the sockets before the executor waits for its reads, so a read the
        // watchdog missed fails the test instead of hanging it
        try (ExecutorService threads = Executors.newVirtualThreadPerTaskExecutor();
             AutoCloseable closeSockets = () -> {
                 for (Socket socket : sockets) {
                     socket.close();
                 }
             };
             ServerSocket server = new ServerSocket(0, stalled, InetAddress.getLoopbackAddress());
             ClientStallWatchdog watchdog = new ClientStallWatchdog(STALL_TIMEOUT, STALL_TIMEOUT, 0)) {
            List<Future<Throwable>> outcomes = new ArrayList<>();
            for (int i = 0; i < stalled; i++) {
                Socket client = new Socket(InetAddress.getLoopbackAddress(), server.getLocalPort());
                sockets.add(client);
                sockets.add(server.accept()); // its peer, which never sends a byte
                InputStream body = watchdog.watch(client.getInputStream());
                outcomes.add(threads.submit(() -> {
                    try {
                        body.read(new byte[16]);
                        return null;
                    } catch (IOException e) {
                        return e;
                    }
                }));
            }
            for (Future<Throwable> outcome : outcomes) {
                assertThat(outcome.get(10, TimeUnit.SECONDS),
                        instanceOf(ClientStallWatchdog.ClientBodyTimeoutException.class));
            }
            assertThat(watchdog.bodyTimeouts(), is((long) stalled));
            Thread.sleep(STALL_TIMEOUT.toMillis() * 2);
            assertThat("no call cut twice: each was forgotten once cut", watchdog.bodyTimeouts(), is((long) stalled));
        }
    }

    @Test
    void aCallThatReturnsIsNoLongerWatched() throws Exception {
        try (ClientStallWatchdog watchdog = new ClientStallWatchdog(TIMEOUT, TIMEOUT, 0);
             ExecutorService threads = Executors.newVirtualThreadPerTaskExecutor()) {
            List<Future<Integer>> reads = new ArrayList<>();
            for (int i = 0; i < 1_000; i++) {
                reads.add(threads.submit(() -> watchdog.watch(new ByteArrayInputStream(new byte[8])).read(new byte[4])));
            }
            for (Future<Integer> read : reads) {
                assertThat(read.get(30, TimeUnit.SECONDS), is(4));
            }
            Thread.sleep(TIMEOUT.toMillis() * 2);
            assertThat("no call cut after it returned", watchdog.bodyTimeouts(), is(0L));
        }
    }
}
