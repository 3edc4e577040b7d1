package io.insika.router.server.proxy;

import java.util.ArrayList;
import java.util.List;

import io.helidon.json.JsonObject;
import io.helidon.json.JsonParser;
import io.helidon.json.JsonValue;
import io.insika.router.api.Backend;
import io.insika.router.server.RouterServer;
import io.insika.router.server.routing.BackendPool;
import io.insika.router.server.testing.NodeCheck;
import io.insika.router.server.testing.TestServers;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import io.insika.router.server.testing.TestProxySettings;

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

    private static NodeCheck check;

    private RouterServer router;

    @BeforeAll
    static void install() throws Exception {
        check = NodeCheck.of("socketio-check", "socket.io");
    }

    @AfterEach
    void stop() {
        if (router != null) {
            router.close();
        }
        check.close();
    }

    @Test
    void eachSessionPollsAndUpgradesOnTheBackendItsStickyIdOwns() throws Exception {
        List<Backend> backends = new ArrayList<>();
        List<String> names = new ArrayList<>();
        for (int i = 0; i < 3; i++) {
            names.add("avatar-" + i);
            backends.add(Backend.parse("http://127.0.0.1:" + check.startServer(names.get(i))));
        }
        BackendPool pool = RouterFixture.ketamaPool(backends);
        router = TestServers.start(RouterFixture.defaultRoutes(), pool, TestProxySettings.DEFAULTS);

        for (String sticky : List.of("a1b2c3d4e5f6g7h8", "session-two-16ch", "qwertyuiopasdfgh", "zzzzzzzzzzzzzzzz")) {
            String output = check.run(List.of("node", "client.mjs", "http://127.0.0.1:" + router.port(), sticky), 30);
            JsonObject result = JsonParser.create(output).readJsonObject();
            String owner = names.get(backends.indexOf(pool.snapshot().owner(sticky).orElseThrow()));

            assertThat(output, result.stringValue("opened").orElseThrow(), is("polling"));
            assertThat(output, result.stringValue("upgraded").orElseThrow(), is("websocket"));
            for (JsonValue answer : result.arrayValue("answers").orElseThrow().values()) {
                assertThat(output, answer.asString().value(), is(owner + " websocket"));
            }
        }
    }
}
