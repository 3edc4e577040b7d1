package io.insika.router.server;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicInteger;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import io.insika.router.server.config.RouterConfig;
import io.insika.router.server.config.RouterConfigLoader;
import io.insika.router.server.testing.FixturePlugins;

import static org.hamcrest.MatcherAssert.assertThat;
import static org.hamcrest.Matchers.is;
import static org.hamcrest.Matchers.sameInstance;
import static org.junit.jupiter.api.Assertions.assertThrows;

/** What runs before the web server: once, before anything listens, and a failure there stops the start. */
class RouterStartTest {

    @TempDir
    Path dir;

    @Test
    void theHookRunsOnceBeforeTheProxyPortListens() throws Exception {
        int port = freePort();
        AtomicInteger calls = new AtomicInteger();
        AtomicInteger listeningDuringHook = new AtomicInteger();

        try (Router router = Router.start(config(port), FixturePlugins.builtIn(), () -> {
            calls.incrementAndGet();
            if (accepts(port)) {
                listeningDuringHook.incrementAndGet();
            }
        })) {
            assertThat(calls.get(), is(1));
            assertThat(listeningDuringHook.get(), is(0));
            assertThat(router.port(), is(port));
            assertThat(accepts(port), is(true));
        }
    }

    @Test
    void aHookThatFailsStopsTheStartWithNothingListening() throws Exception {
        int port = freePort();
        IllegalStateException failure = new IllegalStateException("registry broken");

        IllegalStateException thrown = assertThrows(IllegalStateException.class,
                () -> Router.start(config(port), FixturePlugins.builtIn(), () -> {
                    throw failure;
                }));

        assertThat(thrown, sameInstance(failure));
        assertThat(accepts(port), is(false));
    }

    private RouterConfig config(int port) throws IOException {
        Path yaml = Files.writeString(dir.resolve("router.yaml"), """
                server:
                  host: 127.0.0.1
                  port: %d
                  admin-port: 0
                backends:
                  static: [http://127.0.0.1:9292]
                """.formatted(port));
        return new RouterConfigLoader(FixturePlugins.builtIn()).load(Optional.of(yaml), Map.of());
    }

    private static int freePort() throws IOException {
        try (ServerSocket socket = new ServerSocket(0, 1, java.net.InetAddress.getLoopbackAddress())) {
            return socket.getLocalPort();
        }
    }

    private static boolean accepts(int port) {
        try (Socket socket = new Socket()) {
            socket.connect(new InetSocketAddress("127.0.0.1", port), 500);
            return true;
        } catch (IOException e) {
            return false;
        }
    }
}
