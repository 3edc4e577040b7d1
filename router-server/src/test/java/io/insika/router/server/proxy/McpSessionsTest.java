package io.insika.router.server.proxy;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

import io.helidon.json.JsonObject;
import io.helidon.json.JsonParser;
import io.helidon.json.JsonValue;
import io.insika.router.server.Router;
import io.insika.router.server.config.RouterConfig;
import io.insika.router.server.config.RouterConfigLoader;
import io.insika.router.server.plugin.PluginRegistry;
import io.insika.router.server.session.SessionSeal;
import io.insika.router.server.testing.FixturePlugins;
import io.insika.router.server.testing.NodeCheck;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import static org.hamcrest.MatcherAssert.assertThat;
import static org.hamcrest.Matchers.empty;
import static org.hamcrest.Matchers.greaterThanOrEqualTo;
import static org.hamcrest.Matchers.is;
import static org.hamcrest.Matchers.startsWith;

/**
 * The shipped MCP route with the real thing: three servers of the official TypeScript SDK
 * (Streamable HTTP, stateful sessions, state kept in each process) behind two router replicas
 * started from one configuration file with one secret, and SDK clients that send each request
 * of a session through the other replica: initialize, tool calls, the GET event stream, and the
 * DELETE that ends the session all reach the server that minted it. The packages come from npm
 * (clients/mcp-check/package-lock.json), installed on first use.
 */
@Timeout(180)
class McpSessionsTest {

    private static NodeCheck check;
    private static final int CLIENTS = 12;

    private final List<Router> routers = new ArrayList<>();

    @TempDir
    Path dir;

    @BeforeAll
    static void install() throws Exception {
        check = NodeCheck.of("mcp-check", "@modelcontextprotocol/sdk");
    }

    @AfterEach
    void stop() {
        routers.forEach(Router::close);
        check.close();
    }

    @Test
    void everyRequestOfEverySessionReachesTheServerThatMintedItThroughEitherReplica() throws Exception {
        Map<String, String> serverOfAddress = new HashMap<>();
        StringBuilder backends = new StringBuilder();
        for (int i = 0; i < 3; i++) {
            String name = "mcp-" + i;
            String address = "127.0.0.1:" + check.startServer(name);
            serverOfAddress.put(address, name);
            backends.append("    - http://").append(address).append('\n');
        }
        Path secret = Files.writeString(dir.resolve("session-secret"), "replicas share this secret, 32+ bytes\n");
        Path file = Files.writeString(dir.resolve("insika-router.yaml"), """
                server: { host: 127.0.0.1, port: 0, admin-port: 0 }
                sessions:
                  secret-file: %s
                backends:
                  static:
                %sroutes:
                  - path: /mcp
                    learn: { header: Mcp-Session-Id, unknown-owner-status: 404, bad-seal: reject }
                """.formatted(secret, backends));
        PluginRegistry registry = FixturePlugins.builtIn();
        RouterConfig config = new RouterConfigLoader(registry).load(Optional.of(file), Map.of());
        for (int i = 0; i < 2; i++) {
            routers.add(Router.start(config, registry));
        }

        String output = check.run(List.of("node", "client.mjs", String.valueOf(CLIENTS),
                "http://127.0.0.1:" + routers.get(0).port(), "http://127.0.0.1:" + routers.get(1).port()), 60);

        SessionSeal seal = SessionSeal.read(secret, Optional.empty());
        List<JsonValue> sessions = JsonParser.create(output).readJsonArray().values();
        assertThat(output, sessions.size(), is(CLIENTS));
        Set<String> minters = new HashSet<>();
        Set<String> replicasSeen = new HashSet<>();
        for (JsonValue value : sessions) {
            JsonObject session = value.asObject();
            String sealed = session.stringValue("sealed").orElseThrow();
            SessionSeal.Opened opened = seal.open(sealed).orElseThrow();
            String minter = serverOfAddress.get(opened.ownerId());
            minters.add(minter);
            List<JsonValue> results = session.arrayValue("results").orElseThrow().values();

            assertThat(output, session.arrayValue("errors").orElseThrow().values(), empty());
            assertThat(sealed, startsWith("s1."));
            assertThat(opened.original(), startsWith(minter + "-"));
            assertThat(results.size(), greaterThanOrEqualTo(3));
            for (int call = 0; call < results.size(); call++) {
                JsonObject result = results.get(call).asObject();
                assertThat(output, result.stringValue("server").orElseThrow(), is(minter));
                assertThat(output, result.stringValue("session").orElseThrow(), is(opened.original()));
                assertThat(output, result.numberValue("count").orElseThrow().intValue(), is(call + 1));
            }
            assertThat("the GET event stream reached " + minter, results.getLast().asObject()
                    .booleanValue("sse").orElseThrow(), is(true));
            List<String> requests = session.arrayValue("requests").orElseThrow().values().stream()
                    .map(request -> request.asString().value()).toList();
            assertThat(requests.getLast(), startsWith("DELETE "));
            assertThat(requests.stream().filter(r -> r.startsWith("GET ")).count(), greaterThanOrEqualTo(1L));
            requests.forEach(request -> replicasSeen.add(request.substring(request.indexOf(' ') + 1)));
        }
        assertThat("round-robin spread the sessions", minters.size(), is(3));
        assertThat("both replicas carried requests", replicasSeen.size(), is(2));
        assertThat(output, output.contains("does not know"), is(false));
    }
}
