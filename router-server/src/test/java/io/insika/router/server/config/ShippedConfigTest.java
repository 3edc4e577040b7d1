package io.insika.router.server.config;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Optional;

import io.insika.router.api.PluginOptions;
import io.insika.router.server.backends.BackendCapacity;
import io.insika.router.server.backends.HealthSettings;
import io.insika.router.server.routing.DefaultRoutes;
import io.insika.router.server.routing.ExtractorSpec;
import io.insika.router.server.routing.RouteSpec;
import io.insika.router.server.testing.FixturePlugins;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import static org.hamcrest.MatcherAssert.assertThat;
import static org.hamcrest.Matchers.is;

/** The sample users get and the embedded defaults can never drift from the code's defaults. */
class ShippedConfigTest {

    static final Path SHIPPED = Path.of("../distribution/src/main/conf/insika-router.yaml");

    private final RouterConfigLoader loader = new RouterConfigLoader(FixturePlugins.registry());

    @Test
    void theShippedSampleStatesTheDefaultsAndTheSeedsRouteTable() {
        RouterConfig shipped = loader.load(Optional.of(SHIPPED), Map.of());
        RouterConfig defaults = loader.load(Optional.empty(), Map.of());

        assertThat(withoutOrigins(shipped), is(withoutOrigins(defaults)
                .withStrategyOptions(PluginOptions.of("strategy.options", Map.of("compat", "none")))));
        assertThat(shipped.routes(), is(DefaultRoutes.specs()));
        assertThat(shipped.origins().of("routes"), is(ValueSource.YAML));
    }

    @Test
    void theEmbeddedDefaultStatesTheBuiltInDefaults(@TempDir Path dir) throws Exception {
        RouterConfig embedded = loader.load(Optional.empty(), Map.of());
        RouterConfig builtIn = loader.load(Optional.of(Files.writeString(dir.resolve("empty.yaml"), "")), Map.of());

        assertThat(withoutOrigins(embedded), is(withoutOrigins(builtIn)));
    }

    @Test
    void theShippedSampleTakesTheSeedsDeployShapeOneFromTheEnvironment() {
        RouterConfig config = loader.load(Optional.of(SHIPPED), Map.of("INSIKA_ROUTER_PORT", "8080",
                "INSIKA_ROUTER_BACKENDS", "http://127.0.0.1:9292,http://127.0.0.1:9293,http://127.0.0.1:9294"));

        assertThat(config.port(), is(8080));
        assertThat(((StaticBackends) config.backends()).backends().size(), is(3));
    }

    @Test
    void theCommentedActorRouteWorksOnceUncommented(@TempDir Path dir) throws Exception {
        String commented = """
                  #- methods: [POST]
                  #  path: /_sigx/actor/r/{token}/*
                  #  keys:
                  #    - { type: header, name: x-sigx-actor-route }
                  #    - { type: path-segment, parameter: token }
                """;
        String shipped = Files.readString(SHIPPED);
        assertThat("the example is in the shipped file", shipped.contains(commented), is(true));
        Path uncommented = Files.writeString(dir.resolve("actors.yaml"),
                shipped.replace(commented, commented.replace("  #", "  ")));

        RouterConfig config = loader.load(Optional.of(uncommented), Map.of());

        RouteSpec actors = config.routes().getLast();
        assertThat(config.routes().size(), is(DefaultRoutes.specs().size() + 1));
        assertThat(actors.path(), is("/_sigx/actor/r/{token}/*"));
        assertThat(actors.keys().stream().map(ExtractorSpec::type).toList(), is(List.of("header", "path-segment")));
        assertThat(actors.keys().getFirst().options().get("name"), is(Optional.of("x-sigx-actor-route")));
        assertThat(actors.keys().getLast().options().get("parameter"), is(Optional.of("token")));
    }

    @Test
    void theCommentedMcpRouteAndSessionSecretWorkOnceUncommented(@TempDir Path dir) throws Exception {
        String sessions = """
                #sessions:
                #  secret-file: /etc/insika-router/session-secret
                #  previous-secret-file: /etc/insika-router/session-secret.old
                """;
        String route = """
                  #- path: /mcp
                  #  learn: { header: Mcp-Session-Id, unknown-owner-status: 404, bad-seal: reject }
                """;
        String shipped = Files.readString(SHIPPED);
        assertThat("the sessions example is in the shipped file", shipped.contains(sessions), is(true));
        assertThat("the MCP example is in the shipped file", shipped.contains(route), is(true));
        Path secret = Files.writeString(dir.resolve("secret"), "s".repeat(32));
        Path old = Files.writeString(dir.resolve("secret.old"), "o".repeat(32));
        Path uncommented = Files.writeString(dir.resolve("mcp.yaml"), shipped
                .replace(sessions, sessions.replace("#", "").replace("/etc/insika-router/session-secret.old",
                        old.toString()).replace("/etc/insika-router/session-secret\n", secret + "\n"))
                .replace(route, route.replace("  #", "  ")));

        RouterConfig config = loader.load(Optional.of(uncommented), Map.of());

        assertThat(config.routes().getLast(), is(RouteSpec.learning(java.util.Set.of(), "/mcp",
                io.insika.router.server.routing.LearnSpec.header("Mcp-Session-Id"))));
        assertThat(config.sessions().description(), is(io.insika.router.server.session.SessionSeal.read(secret,
                Optional.of(old)).description()));
    }

    /** Everything but where values came from, which differs by design. */
    private static Comparable withoutOrigins(RouterConfig config) {
        return new Comparable(config.host(), config.port(), config.adminPort(), config.shutdownGrace(),
                config.stopDelay(), config.maxConnections(), config.strategy(), config.strategyOptions(), config.backends(),
                config.capacity(), config.health(), config.bodyMaxBytes(), config.backendTimeout(), config.clientBodyTimeout(), config.clientSendTimeout(),
                config.trustedProxies().entries(), config.maxRequests(), config.peekBudget(), config.accessLog(),
                config.routes());
    }

    private record Comparable(String host, int port, int adminPort, java.time.Duration grace,
                              java.time.Duration stopDelay, int maxConnections, String strategy, PluginOptions options,
                              BackendSource backends, BackendCapacity capacity, HealthSettings health,
                              int bodyMaxBytes, java.time.Duration backendTimeout,
                              java.time.Duration clientBodyTimeout, java.time.Duration clientSendTimeout,
                              java.util.List<String> trustedProxies, int maxRequests, int peekBudget,
                              boolean accessLog, java.util.List<?> routes) {
        Comparable withStrategyOptions(PluginOptions replaced) {
            return new Comparable(host, port, adminPort, grace, stopDelay, maxConnections, strategy, replaced, backends,
                    capacity, health, bodyMaxBytes, backendTimeout, clientBodyTimeout, clientSendTimeout, trustedProxies, maxRequests,
                    peekBudget, accessLog, routes);
        }
    }
}
