package io.insika.router.server.proxy;

import java.math.BigInteger;
import java.nio.file.Files;
import java.nio.file.Path;
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
import io.insika.router.server.testing.FixturePlugins;
import io.insika.router.server.testing.NodeCheck;
import io.insika.router.server.testing.TestCertificates;
import io.insika.router.server.testing.TestCertificates.Authority;
import io.insika.router.server.testing.TestCertificates.KeyFormat;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import static org.hamcrest.MatcherAssert.assertThat;
import static org.hamcrest.Matchers.everyItem;
import static org.hamcrest.Matchers.greaterThan;
import static org.hamcrest.Matchers.hasSize;
import static org.hamcrest.Matchers.is;

/**
 * The OpenAI Node SDK (npm's {@code openai}, clients/openai-check) as an application runs it,
 * against two servers of the Responses API behind a router that serves HTTPS with a certificate
 * of a test CA, which Node trusts through {@code NODE_EXTRA_CA_CERTS}: every user's requests
 * reach one server, and a streamed answer arrives a delta at a time as the server writes it.
 */
@Timeout(180)
class OpenAiSdkTest {

    private static NodeCheck check;

    @TempDir
    Path dir;

    private Router router;

    @BeforeAll
    static void install() throws Exception {
        check = NodeCheck.of("openai-check", "openai");
    }

    @AfterEach
    void stop() {
        if (router != null) {
            router.close();
        }
        check.close();
    }

    @Test
    void everyUsersRequestsOverHttpsReachOneServerAndAStreamArrivesDeltaByDelta() throws Exception {
        Authority ca = TestCertificates.authority("openai-check-ca");
        TestCertificates.write(ca.server(BigInteger.valueOf(0x0a1), "EC"), dir.resolve("tls.crt"), dir.resolve("tls.key"),
                KeyFormat.PKCS8);
        Path caFile = dir.resolve("ca.crt");
        TestCertificates.writePem(caFile, ca.certificate());
        String first = "127.0.0.1:" + check.startServer("engine-a");
        String second = "127.0.0.1:" + check.startServer("engine-b");
        Path file = Files.writeString(dir.resolve("insika-router.yaml"), """
                server:
                  host: 127.0.0.1
                  port: 0
                  admin-port: 0
                  tls: { certificate: %s, private-key: %s }
                backends:
                  static:
                    - http://%s
                    - http://%s
                routes:
                  - methods: [POST]
                    path: /v1/responses
                    keys:
                      - { type: json-field, field: user }
                """.formatted(dir.resolve("tls.crt"), dir.resolve("tls.key"), first, second));
        PluginRegistry registry = FixturePlugins.builtIn();
        RouterConfig config = new RouterConfigLoader(registry).load(Optional.of(file), Map.of());
        router = Router.start(config, registry);

        String output = check.run(List.of("node", "client.mjs", "https://127.0.0.1:" + router.port() + "/v1"),
                Map.of("NODE_EXTRA_CA_CERTS", caFile.toString()), 90);

        JsonObject result = JsonParser.create(output).readJsonObject();
        JsonObject servers = result.objectValue("servers").orElseThrow();
        Set<String> used = new HashSet<>();
        for (int u = 0; u < 20; u++) {
            String user = "user-" + u;
            Set<String> answered = new HashSet<>();
            servers.arrayValue(user).orElseThrow().values().forEach(v -> answered.add(v.asString().value()));
            assertThat(output, answered, hasSize(1));
            used.addAll(answered);
        }
        assertThat("twenty users over two servers: the keys spread", used, hasSize(2));

        String firstServer = servers.arrayValue("user-0").orElseThrow().values().getFirst().asString().value();
        List<JsonValue> deltas = result.arrayValue("deltas").orElseThrow().values();
        assertThat(output, deltas, hasSize(3)); // "<server> user-0 4", a word at a time
        assertThat(output, result.stringValue("completed").orElseThrow(), is(firstServer + " user-0 4"));
        // the server pauses 150 ms before each delta: relayed as written, they arrive apart
        long firstAt = deltas.getFirst().asObject().longValue("at").orElseThrow();
        long lastAt = deltas.getLast().asObject().longValue("at").orElseThrow();
        assertThat(output, lastAt - firstAt, greaterThan(200L));
        assertThat(output, deltas.stream().map(d -> d.asObject().stringValue("delta").orElseThrow()).toList(),
                everyItem(org.hamcrest.Matchers.endsWith(" ")));
    }
}
