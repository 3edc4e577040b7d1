package io.insika.router.server.proxy;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

import io.helidon.json.JsonObject;
import io.helidon.json.JsonParser;
import io.helidon.json.JsonValue;
import io.insika.router.api.Backend;
import io.insika.router.server.RouterServer;
import io.insika.router.server.routing.BackendPool;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import static org.hamcrest.MatcherAssert.assertThat;
import static org.hamcrest.Matchers.is;

/**
 * The shipped Socket.IO route with the real thing: npm's {@code socket.io} servers behind the
 * router and {@code socket.io-client} in front, long-polling and then upgrading to WebSocket
 * with its {@code stickyId}, as the seed's avatar client does. The packages come from npm
 * (clients/socketio-check/package-lock.json), installed on first use.
 */
@Timeout(180)
class SocketIoClientTest {

    private static final Path CHECK = Path.of("../clients/socketio-check").toAbsolutePath().normalize();

    private final List<Process> servers = new ArrayList<>();
    private RouterServer router;

    @BeforeAll
    static void install() throws Exception {
        if (!Files.isDirectory(CHECK.resolve("node_modules/socket.io"))) {
            run(List.of("npm", "ci", "--no-audit", "--no-fund"), 150);
        }
    }

    @AfterEach
    void stop() {
        if (router != null) {
            router.close();
        }
        servers.forEach(Process::destroy);
    }

    @Test
    void eachSessionPollsAndUpgradesOnTheBackendItsStickyIdOwns() throws Exception {
        List<Backend> backends = new ArrayList<>();
        List<String> names = new ArrayList<>();
        for (int i = 0; i < 3; i++) {
            names.add("avatar-" + i);
            backends.add(Backend.parse("http://127.0.0.1:" + startServer(names.get(i))));
        }
        BackendPool pool = RouterFixture.ketamaPool(backends);
        router = RouterServer.start("127.0.0.1", 0, RouterFixture.defaultRoutes(), pool, ProxySettings.DEFAULTS);

        for (String sticky : List.of("a1b2c3d4e5f6g7h8", "session-two-16ch", "qwertyuiopasdfgh", "zzzzzzzzzzzzzzzz")) {
            String output = run(List.of("node", "client.mjs", "http://127.0.0.1:" + router.port(), sticky), 30);
            JsonObject result = JsonParser.create(output).readJsonObject();
            String owner = names.get(backends.indexOf(pool.snapshot().owner(sticky).orElseThrow()));

            assertThat(output, result.stringValue("opened").orElseThrow(), is("polling"));
            assertThat(output, result.stringValue("upgraded").orElseThrow(), is("websocket"));
            for (JsonValue answer : result.arrayValue("answers").orElseThrow().values()) {
                assertThat(output, answer.asString().value(), is(owner + " websocket"));
            }
        }
    }

    // A server's port, from its first line
    private int startServer(String name) throws IOException {
        Process server = new ProcessBuilder("node", "server.mjs", name).directory(CHECK.toFile())
                .redirectErrorStream(true).start();
        servers.add(server);
        BufferedReader lines = new BufferedReader(new InputStreamReader(server.getInputStream(), StandardCharsets.UTF_8));
        String first = lines.readLine();
        if (first == null || !first.startsWith("listening ")) {
            throw new IllegalStateException("socket.io server " + name + " did not start: " + first);
        }
        return Integer.parseInt(first.substring("listening ".length()).strip());
    }

    private static String run(List<String> command, int seconds) throws Exception {
        Process process = new ProcessBuilder(command).directory(CHECK.toFile()).redirectErrorStream(true).start();
        String output = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8).strip();
        assertThat(String.join(" ", command) + " timed out: " + output, process.waitFor(seconds, TimeUnit.SECONDS),
                is(true));
        assertThat(String.join(" ", command) + ": " + output, process.exitValue(), is(0));
        return output;
    }
}
