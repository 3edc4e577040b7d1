package io.insika.router.server.config;

import java.net.InetSocketAddress;
import java.net.URI;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

import io.insika.router.api.Backend;
import io.insika.router.api.PluginOptions;
import io.insika.router.server.backends.BackendLimits;
import io.insika.router.server.backends.HealthSettings;
import io.insika.router.server.routing.DefaultRoutes;
import io.insika.router.server.routing.MissPolicy;
import io.insika.router.server.routing.RouteSpec;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import static org.hamcrest.MatcherAssert.assertThat;
import static org.hamcrest.Matchers.contains;
import static org.hamcrest.Matchers.empty;
import static org.hamcrest.Matchers.is;

class RouterConfigLoaderTest {

    private static final String FULL = """
            server: { host: 127.0.0.1, port: 8080, admin-port: 8081, shutdown-grace: 3s, stop-delay: 2s }
            strategy: { name: fixture-picky, options: { level: high } }
            backends:
              static: [ { url: "http://10.0.0.1:9292", weight: 3 }, "http://10.0.0.2:9292/" ]
            proxy: { body-max-bytes: 1024, backend-timeout: 1500ms, client-body-timeout: 5s,
                     client-send-timeout: 6s, access-log: true }
            routes:
              - methods: [post, PUT]
                path: /rooms/{room}/join
                keys: [ { type: fixture-header, name: X-Session }, { type: json-field, field: user } ]
            """;

    @TempDir
    Path dir;
    private ConfigFiles files;

    @BeforeEach
    void setUp() {
        files = new ConfigFiles(dir);
    }

    @Test
    void withNoFileAndNoEnvironmentEveryValueIsTheDefault() {
        RouterConfig config = files.loadDefault(Map.of());

        assertThat(config.server().host(), is("0.0.0.0"));
        assertThat(config.server().port(), is(9090));
        assertThat(config.server().adminPort(), is(9091));
        assertThat(config.server().shutdownGrace(), is(Duration.ofSeconds(10)));
        assertThat(config.server().stopDelay(), is(Duration.ZERO));
        assertThat(config.strategy().name(), is("ketama"));
        assertThat(config.strategy().options(), is(PluginOptions.of("strategy.options", Map.of("compat", "none"))));
        assertThat(config.backends(), is(new StaticBackends(List.of())));
        assertThat(config.proxy().bodyMaxBytes(), is(262_144));
        assertThat(config.proxy().backendTimeout(), is(Duration.ofSeconds(10)));
        assertThat(config.proxy().clientBodyTimeout(), is(Duration.ofSeconds(60)));
        assertThat(config.proxy().clientSendTimeout(), is(Duration.ofSeconds(60)));
        assertThat(config.proxy().accessLog().isPresent(), is(false));
        assertThat(config.routes(), is(DefaultRoutes.specs()));
        assertThat(config.origins().file(), is(Optional.empty()));
        assertThat(Set.copyOf(config.origins().sources().values()), is(Set.of(ValueSource.DEFAULT)));
    }

    @Test
    void everyYamlKeyIsReadAndMarkedAsComingFromTheFile() {
        RouterConfig config = files.load(FULL);

        assertThat(config.server().host(), is("127.0.0.1"));
        assertThat(config.server().port(), is(8080));
        assertThat(config.server().adminPort(), is(8081));
        assertThat(config.server().shutdownGrace(), is(Duration.ofSeconds(3)));
        assertThat(config.server().stopDelay(), is(Duration.ofSeconds(2)));
        assertThat(config.strategy().name(), is("fixture-picky"));
        assertThat(config.strategy().options(), is(PluginOptions.of("strategy.options", Map.of("level", "high"))));
        assertThat(config.backends(), is(new StaticBackends(List.of(
                Backend.of(URI.create("http://10.0.0.1:9292"), 3), Backend.parse("http://10.0.0.2:9292/")))));
        assertThat(config.proxy().bodyMaxBytes(), is(1024));
        assertThat(config.proxy().backendTimeout(), is(Duration.ofMillis(1500)));
        assertThat(config.proxy().clientBodyTimeout(), is(Duration.ofSeconds(5)));
        assertThat(config.proxy().clientSendTimeout(), is(Duration.ofSeconds(6)));
        assertThat(config.proxy().accessLog().isPresent(), is(true));
        assertThat(config.origins().of("server.port"), is(ValueSource.YAML));
        assertThat(config.origins().of("backends.static"), is(ValueSource.YAML));
        assertThat(config.origins().of("routes"), is(ValueSource.YAML));
        assertThat(config.origins().file(), is(Optional.of(dir.resolve("insika-router.yaml").toString())));
    }

    @Test
    void routeMethodsAreUpperCasedAndExtractorOptionsCarryTheirPath() {
        RouteSpec route = files.load(FULL).routes().getFirst();

        assertThat(route.methods(), is(Set.of("POST", "PUT")));
        assertThat(route.path(), is("/rooms/{room}/join"));
        assertThat(route.keys().get(0).type(), is("fixture-header"));
        assertThat(route.keys().get(0).options(), is(PluginOptions.of("routes[0].keys[0]", Map.of("name", "X-Session"))));
        assertThat(route.keys().get(1).options().path(), is("routes[0].keys[1]"));
    }

    @Test
    void aRouteWithoutMethodsMatchesAnyMethodAndAnEmptyTableKeysNothing() {
        assertThat(files.load("routes: [ { path: /x, keys: [ { type: json-field, field: f } ] } ]")
                .routes().getFirst().methods(), is(empty()));
        assertThat(files.load("routes: []").routes(), is(empty()));
    }

    @Test
    void environmentVariablesBeatTheYaml() {
        RouterConfig config = files.load(FULL, Map.of(
                "INSIKA_ROUTER_HOST", "::", "INSIKA_ROUTER_PORT", "7000", "INSIKA_ROUTER_BODY_MAX_BYTES", "99",
                "INSIKA_ROUTER_BACKEND_TIMEOUT", "4", "INSIKA_ROUTER_STRATEGY", "rendezvous",
                "INSIKA_ROUTER_ACCESS_LOG", "FALSE", "INSIKA_ROUTER_CLIENT_BODY_TIMEOUT", "7",
                "INSIKA_ROUTER_STOP_DELAY", "500ms"));

        assertThat(config.server().host(), is("::"));
        assertThat(config.server().port(), is(7000));
        assertThat(config.proxy().bodyMaxBytes(), is(99));
        assertThat(config.proxy().backendTimeout(), is(Duration.ofSeconds(4)));
        assertThat(config.strategy().name(), is("rendezvous"));
        assertThat(config.proxy().accessLog().isPresent(), is(false));
        assertThat(config.proxy().clientBodyTimeout(), is(Duration.ofSeconds(7)));
        assertThat(config.server().stopDelay(), is(Duration.ofMillis(500)));
        assertThat(config.origins().of("server.port"), is(ValueSource.ENVIRONMENT));
        assertThat(config.origins().of("server.admin-port"), is(ValueSource.YAML));
    }

    @Test
    void theAdminPortListensWhereTheProxyDoesUnlessItsHostIsGiven() {
        RouterConfig followed = files.load(FULL, Map.of("INSIKA_ROUTER_HOST", "127.0.0.3"));
        RouterConfig ownHost = files.load("server: { host: 0.0.0.0, admin-host: 127.0.0.1 }");

        assertThat(followed.server().adminHost(), is("127.0.0.3"));
        assertThat(followed.origins().of("server.admin-host"), is(ValueSource.DEFAULT));
        assertThat(ownHost.server().host(), is("0.0.0.0"));
        assertThat(ownHost.server().adminHost(), is("127.0.0.1"));
        assertThat(ownHost.origins().of("server.admin-host"), is(ValueSource.YAML));
    }

    @Test
    void theAdminHostAndPortVariablesBeatTheYaml() {
        RouterConfig config = files.load(FULL + "server.admin-host: 10.1.2.3\n", Map.of(
                "INSIKA_ROUTER_ADMIN_HOST", "127.0.0.1", "INSIKA_ROUTER_ADMIN_PORT", "9191"));

        assertThat(config.server().host(), is("127.0.0.1"));
        assertThat(config.server().adminHost(), is("127.0.0.1"));
        assertThat(config.server().adminPort(), is(9191));
        assertThat(config.origins().of("server.admin-host"), is(ValueSource.ENVIRONMENT));
        assertThat(config.origins().of("server.admin-port"), is(ValueSource.ENVIRONMENT));
    }

    @Test
    void aBadAdminHostIsRefusedNamingTheVariable() {
        assertThat(files.problems("", Map.of("INSIKA_ROUTER_ADMIN_HOST", "not a host!")), contains(
                "INSIKA_ROUTER_ADMIN_HOST: [not a host!] (expected: empty (server.host's) or a host name or IP address,"
                        + " such as 127.0.0.1)"));
    }

    @Test
    void strategyOptionsWrittenForAnotherStrategyAreDroppedWhenTheEnvironmentSwitches() {
        RouterConfig config = files.load(FULL, Map.of("INSIKA_ROUTER_STRATEGY", "ketama"));

        // ketama's own defaults, nothing of fixture-picky's level: high
        assertThat(config.strategy().options(), is(PluginOptions.of("strategy.options", Map.of("compat", "none"))));
    }

    @Test
    void aBlankVariableCountsAsUnset() {
        assertThat(files.load(FULL, Map.of("INSIKA_ROUTER_PORT", " ", "INSIKA_ROUTER_BACKENDS", "")).server().port(), is(8080));
    }

    @Test
    void theCommandLineFileBeatsTheConfigVariable() {
        Path fromVariable = files.write("variable.yaml", "server: { port: 1111 }");
        Path fromCommandLine = files.write("cli.yaml", "server: { port: 2222 }");
        RouterConfigLoader loader = new RouterConfigLoader(io.insika.router.server.testing.FixturePlugins.registry());
        Map<String, String> environment = Map.of("INSIKA_ROUTER_CONFIG", fromVariable.toString());

        assertThat(loader.load(Optional.empty(), environment).server().port(), is(1111));
        assertThat(loader.load(Optional.of(fromCommandLine), environment).server().port(), is(2222));
    }

    @Test
    void staticBackendsFromTheEnvironmentReplaceYamlDnsEntirely() {
        RouterConfig config = files.load("backends: { dns: { name: a.example, port: 1 } }",
                Map.of("INSIKA_ROUTER_BACKENDS", "http://127.0.0.1:9292, http://127.0.0.1:9293"));

        assertThat(config.backends(), is(new StaticBackends(List.of(
                Backend.parse("http://127.0.0.1:9292"), Backend.parse("http://127.0.0.1:9293")))));
        assertThat(config.origins().of("backends.static"), is(ValueSource.ENVIRONMENT));
    }

    @Test
    void dnsFromTheEnvironmentReplacesAYamlStaticList() {
        RouterConfig config = files.load("backends: { static: [ http://127.0.0.1:9292 ] }", Map.of(
                "INSIKA_ROUTER_BACKENDS_DNS", "insika-headless.default.svc.cluster.local",
                "INSIKA_ROUTER_BACKEND_PORT", "9292", "INSIKA_ROUTER_DNS_INTERVAL", "5"));

        assertThat(config.backends(), is(new DnsBackends("insika-headless.default.svc.cluster.local", 9292,
                Duration.ofSeconds(5), Optional.empty(), DnsBackends.DEFAULT_TIMEOUT)));
    }

    @Test
    void dnsFromTheEnvironmentOverridesOnlyItsOwnKeysOfAYamlDnsSection() {
        RouterConfig config = files.load(
                "backends: { dns: { name: a.test, port: 80, interval: 200ms, resolver: 127.0.0.1:5353, timeout: 1s } }",
                Map.of("INSIKA_ROUTER_BACKENDS_DNS", "b.test"));

        assertThat(config.backends(), is(new DnsBackends("b.test", 80, Duration.ofMillis(200),
                Optional.of(new InetSocketAddress("127.0.0.1", 5353)), Duration.ofSeconds(1))));
        assertThat(config.origins().of("backends.dns.name"), is(ValueSource.ENVIRONMENT));
        assertThat(config.origins().of("backends.dns.port"), is(ValueSource.YAML));
    }

    @Test
    void aResolverWithoutPortAsksPort53AndIpv6LiteralsAreBracketed() {
        DnsBackends plain = (DnsBackends) files.load("backends: { dns: { name: a.test, port: 80, resolver: 10.96.0.10 } }")
                .backends();
        DnsBackends ipv6 = (DnsBackends) files.load("backends: { dns: { name: a.test, port: 80, resolver: \"[::1]:5353\" } }")
                .backends();

        assertThat(plain.resolver(), is(Optional.of(new InetSocketAddress("10.96.0.10", 53))));
        assertThat(ipv6.resolver(), is(Optional.of(new InetSocketAddress("::1", 5353))));
    }

    @Test
    void aStaticEntryMaySetItsOwnSlotsAndTheRestKeepTheDefaults() {
        RouterConfig config = files.load("""
                backends:
                  max-requests: 16
                  static:
                    - http://10.0.0.1:9292
                    - { url: "http://10.0.0.2:9292", max-tunnels: 4 }
                    - { url: "http://10.0.0.3:9292", max-requests: 0, max-tunnels: 1 }
                """);

        assertThat(config.proxy().capacity().of("10.0.0.1:9292"), is(new BackendLimits(16, 0)));
        assertThat(config.proxy().capacity().of("10.0.0.2:9292"), is(new BackendLimits(16, 4)));
        assertThat(config.proxy().capacity().of("10.0.0.3:9292"), is(new BackendLimits(0, 1)));
        assertThat("a backend discovered later gets the defaults", config.proxy().capacity().of("10.0.0.9:9292"),
                is(new BackendLimits(16, 0)));
    }

    @Test
    void aBackendMayBePlacedUnderTheIdItsClusterKnowsItBy() {
        RouterConfig staticIds = files.load("""
                backends:
                  static:
                    - { url: "http://10.0.4.7:7311", id: actor-host-3 }
                    - http://10.0.4.8:7311
                """);
        RouterConfig dnsIds = files.load("backends: { dns: { name: hosts.test, port: 7311, id: \"actor@{ip}\" } }");

        assertThat(((StaticBackends) staticIds.backends()).backends().stream().map(Backend::id).toList(),
                contains("actor-host-3", "10.0.4.8:7311"));
        assertThat(((DnsBackends) dnsIds.backends()).id().apply("10.0.4.9", 7311), is("actor@10.0.4.9"));
        assertThat(((DnsBackends) files.load("backends: { dns: { name: hosts.test, port: 7311 } }").backends()).id()
                .apply("fd00::7", 7311), is("[fd00::7]:7311"));
    }

    @Test
    void aRouteMayRedirectToOwnersThatPublishAnAddress() {
        RouterConfig config = files.load("""
                backends:
                  static: [ { url: "http://10.0.4.7:7311", public-address: "https://host-1.example.com" } ]
                routes:
                  - path: /actors/*
                    keys: [ { type: header, name: x-sigx-actor-route } ]
                    on-miss: auto
                    redirect-origins: [ "https://App.example.com" ]
                    max-redirects: 1
                """);

        assertThat(((StaticBackends) config.backends()).backends().getFirst().publicAddress(),
                is(Optional.of(URI.create("https://host-1.example.com"))));
        assertThat(config.routes().getFirst().onMiss(), is(new MissPolicy(MissPolicy.Mode.AUTO,
                Set.of("https://app.example.com"), 1)));
        assertThat(((DnsBackends) files.load("backends: { dns: { name: a.test, port: 1, public-address:"
                + " \"https://{ip-dashed}.actors.test\" } }").backends()).publicAddress().orElseThrow()
                .apply("10.42.0.7", 1), is("https://10-42-0-7.actors.test"));
    }

    @Test
    void theEnvironmentSetsTheDefaultSlotsAndHealthChecks() {
        RouterConfig config = files.load("health: { path: /ready }", Map.of(
                "INSIKA_ROUTER_BACKENDS_DNS", "pods.test", "INSIKA_ROUTER_BACKEND_PORT", "80",
                "INSIKA_ROUTER_BACKEND_MAX_REQUESTS", "32", "INSIKA_ROUTER_BACKEND_MAX_TUNNELS", "8",
                "INSIKA_ROUTER_HEALTH_PATH", "/healthz", "INSIKA_ROUTER_HEALTH_INTERVAL", "1",
                "INSIKA_ROUTER_HEALTH_DOWN_TIME", "500ms"));

        assertThat(config.proxy().capacity().of("10.1.2.3:80"), is(new BackendLimits(32, 8)));
        assertThat(config.proxy().health(), is(new HealthSettings(Duration.ofMillis(500), Optional.of("/healthz"),
                Duration.ofSeconds(1), Duration.ofSeconds(1))));
        assertThat(config.origins().of("health.path"), is(ValueSource.ENVIRONMENT));
    }

    @Test
    void withoutAHealthPathThereAreNoActiveChecks() {
        assertThat(files.loadDefault(Map.of()).proxy().health(), is(HealthSettings.DEFAULTS));
        assertThat(files.load("health: { path: \"\" }").proxy().health().path(), is(Optional.empty()));
    }

    @Test
    void originsListTheDnsKeysOnlyInDnsMode() {
        assertThat(List.copyOf(files.load("server: { port: 1 }").origins().sources().keySet()),
                is(TableKeys.inStaticMode()));
        assertThat(List.copyOf(files.load("backends: { dns: { name: a.test, port: 80 } }").origins().sources().keySet()),
                is(TableKeys.inDnsMode()));
    }

    @Test
    void theLogFormatIsTextUnlessYamlOrTheEnvironmentSayJson() {
        assertThat(files.loadDefault(Map.of()).logFormat(), is(io.insika.router.server.logging.LogFormat.TEXT));
        assertThat(files.load("logging: { format: json }").logFormat(), is(io.insika.router.server.logging.LogFormat.JSON));
        assertThat(files.loadDefault(Map.of("INSIKA_ROUTER_LOG_FORMAT", "JSON")).logFormat(),
                is(io.insika.router.server.logging.LogFormat.JSON));
        assertThat(files.problems("logging: { format: logfmt }"),
                contains("logging.format: [logfmt] (expected: text or json)"));
    }
}
