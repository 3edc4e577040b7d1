package io.insika.router.server.config;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
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

        // compat: none written out is ketama's default left out
        assertThat(withoutOrigins(shipped), is(withoutOrigins(defaults)));
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
    void bothFilesStateEveryKeysDefaultAsTheTableHasIt() throws Exception {
        YamlNode shipped = yaml(Files.readString(SHIPPED));
        YamlNode embedded = yaml(new String(getClass().getResourceAsStream("/" + RouterConfigLoader.EMBEDDED_DEFAULT)
                .readAllBytes(), java.nio.charset.StandardCharsets.UTF_8));
        List<String> wrong = new ArrayList<>();
        for (ConfigKey key : Settings.all()) {
            if (key instanceof Setting<?> setting && !inDnsSection(setting)) {
                wrong.addAll(statesDefault("conf/insika-router.yaml", shipped, setting));
                wrong.addAll(statesDefault(RouterConfigLoader.EMBEDDED_DEFAULT, embedded, setting));
            }
        }
        assertThat(wrong, is(List.of()));
    }

    @Test
    void theShippedSampleShowsEveryDnsKeyInItsCommentedSection() throws Exception {
        String shipped = Files.readString(SHIPPED);
        List<String> missing = Settings.all().stream()
                .filter(key -> key instanceof Setting<?> setting && inDnsSection(setting))
                .map(key -> "#   " + key.key().substring("backends.dns.".length()) + ":")
                .filter(line -> !shipped.contains(line)).toList();
        assertThat(missing, is(List.of()));
    }

    // DNS mode is off by default, so its keys are examples (commented) in the sample, absent in the embedded file
    private static boolean inDnsSection(Setting<?> setting) {
        return setting.key().startsWith("backends.dns.");
    }

    // Compared as the type prints what the file says: 60s and 1m are the same default.
    private static <T> List<String> statesDefault(String file, YamlNode root, Setting<T> setting) {
        YamlNode node = root.get(setting.key());
        Optional<String> written = node.type() == YamlNode.Type.VALUE ? Optional.of(node.asString().orElse(""))
                : Optional.empty();
        Optional<String> read = written.flatMap(text -> setting.type().parse(text)).map(setting.type()::print);
        String expected = setting.type().print(setting.fallback());
        return read.equals(Optional.of(expected)) ? List.of()
                : List.of(file + ": " + setting.key() + " is " + written.orElse("absent") + ", the default is " + expected);
    }

    private static YamlNode yaml(String text) {
        return YamlNode.parse(text, "test");
    }

    @Test
    void theShippedSampleTakesTheSeedsDeployShapeOneFromTheEnvironment() {
        RouterConfig config = loader.load(Optional.of(SHIPPED), Map.of("INSIKA_ROUTER_PORT", "8080",
                "INSIKA_ROUTER_BACKENDS", "http://127.0.0.1:9292,http://127.0.0.1:9293,http://127.0.0.1:9294"));

        assertThat(config.server().port(), is(8080));
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
                  secret-file: ""
                  previous-secret-file: ""
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
                .replace(sessions, "  secret-file: " + secret + "\n  previous-secret-file: " + old + "\n")
                .replace(route, route.replace("  #", "  ")));

        RouterConfig config = loader.load(Optional.of(uncommented), Map.of());

        assertThat(config.routes().getLast(), is(RouteSpec.learning(java.util.Set.of(), "/mcp",
                io.insika.router.server.routing.LearnSpec.header("Mcp-Session-Id"))));
        assertThat(config.proxy().sessions().toString(), is(io.insika.router.server.session.SessionSeal.read(secret,
                Optional.of(old)).toString()));
    }

    /** Everything but where values came from, which differs by design. */
    private static Comparable withoutOrigins(RouterConfig config) {
        return new Comparable(config.server().host(), config.server().port(), config.server().adminPort(), config.server().shutdownGrace(),
                config.server().stopDelay(), config.server().maxConnections(), config.strategy().name(), config.strategy().options(), config.backends(),
                config.proxy().capacity(), config.proxy().health(), config.proxy().bodyMaxBytes(), config.proxy().backendTimeout(), config.proxy().clientBodyTimeout(), config.proxy().clientSendTimeout(),
                config.proxy().trustedProxies().entries(), config.proxy().maxRequests(), config.proxy().peekBudget(), config.proxy().accessLog().isPresent(),
                config.routes(), config.strategy().allowChangeOnReload());
    }

    private record Comparable(String host, int port, int adminPort, java.time.Duration grace,
                              java.time.Duration stopDelay, int maxConnections, String strategy, PluginOptions options,
                              BackendSource backends, BackendCapacity capacity, HealthSettings health,
                              int bodyMaxBytes, java.time.Duration backendTimeout,
                              java.time.Duration clientBodyTimeout, java.time.Duration clientSendTimeout,
                              java.util.List<String> trustedProxies, int maxRequests, int peekBudget,
                              boolean accessLog, java.util.List<?> routes, boolean strategyChangeOnReload) {
    }
}
