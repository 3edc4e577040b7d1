package io.insika.router.distribution;

import java.nio.file.Path;
import java.util.Comparator;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Plugins as their authors make them: compiled against router-api alone, dropped into plugins/. */
class PluginTest {

    private static final String EXTRACTOR_SPI = "io.insika.router.api.KeyExtractorProvider";
    private static final String STRATEGY_SPI = "io.insika.router.api.RouteStrategyProvider";

    /** The key is the X-Tenant header. */
    private static final String TENANT_EXTRACTOR = """
            package example;

            import java.util.Set;
            import io.insika.router.api.*;

            public final class TenantKeyExtractorProvider implements KeyExtractorProvider {
                public String type() { return "%s"; }
                public KeyExtractor create(PluginOptions options) {
                    options.requireOnly(Set.of());
                    return request -> request.header("X-Tenant");
                }
            }
            """;

    /** A numeric key n goes to the n-th backend (mod size), by backend id order: predictable by a test. */
    private static final String DIGIT_STRATEGY = """
            package example;

            import java.util.*;
            import io.insika.router.api.*;

            public final class DigitModRouteStrategyProvider implements RouteStrategyProvider {
                public String name() { return "digit-mod"; }
                public RouteStrategy create(PluginOptions options) {
                    options.requireOnly(Set.of());
                    return backends -> {
                        List<Backend> sorted = backends.stream().sorted(Comparator.comparing(Backend::id)).toList();
                        return new Picker() {
                            public Optional<Backend> pick(String key) {
                                if (sorted.isEmpty() || !key.matches("[0-9]+")) {
                                    return Optional.empty();
                                }
                                return Optional.of(sorted.get(Integer.parseInt(key) % sorted.size()));
                            }
                            public List<Backend> backends() { return sorted; }
                        };
                    };
                }
            }
            """;

    private static final String PLUGIN_YAML = """
            strategy:
              name: digit-mod
            routes:
              - path: /tenants/*
                keys:
                  - { type: tenant-header }
            """;

    private final UnpackedDistribution dist = UnpackedDistribution.unpack();

    @Test
    void pluginStrategyAndExtractorNamedInYamlRouteRequests() {
        plugin("tenant-header").writeTo(dist.plugins().resolve("tenant-plugin.jar"));
        List<WhoAmIBackend> backends = List.of(new WhoAmIBackend("backend-a"), new WhoAmIBackend("backend-b"));
        List<String> byId = backends.stream().sorted(Comparator.comparing(WhoAmIBackend::id))
                .map(backend -> backend.name).toList();
        try (RouterProcess router = RouterProcess.start(dist, Map.of(),
                "--config", dist.configFor(backends, PLUGIN_YAML).toString()).awaitListening()) {
            for (int tenant = 0; tenant < 6; tenant++) {
                String answeredBy = Http.get(router.port(), "/tenants/any/thing",
                        Map.of("X-Tenant", String.valueOf(tenant))).body();
                assertEquals(byId.get(tenant % 2), answeredBy, "tenant " + tenant);
            }
            assertTrue(router.stderr().contains("plugin strategy [digit-mod] from " + dist.plugins().resolve(
                    "tenant-plugin.jar") + " (version 2.1.0)"), router.stderr());
        } finally {
            backends.forEach(WhoAmIBackend::close);
        }
    }

    @Test
    void pluginBundlingItsOwnRouterApiIsRefusedNamingTheJar() {
        Path jar = plugin("tenant-header")
                .entry("io/insika/router/api/Backend.class", new byte[] {(byte) 0xCA, (byte) 0xFE})
                .writeTo(dist.plugins().resolve("fat-plugin.jar"));

        RouterProcess.Result refused = RouterProcess.run(dist, Map.of(), "check");

        assertEquals(1, refused.exitCode());
        assertEquals(1, refused.errorLines().size(), refused.stderr());
        assertTrue(refused.stderr().contains(jar + " bundles its own copy of router-api"), refused.stderr());
    }

    @Test
    void twoPluginsWithOneNameAreRefusedNamingBoth() {
        Path first = plugin("tenant-header").writeTo(dist.plugins().resolve("a-plugin.jar"));
        Path second = plugin("tenant-header-too").writeTo(dist.plugins().resolve("b-plugin.jar"));

        RouterProcess.Result refused = RouterProcess.run(dist, Map.of(), "check");

        assertEquals(1, refused.exitCode());
        assertEquals("insika-router: strategy [digit-mod] is provided twice: by " + first + " and by " + second,
                refused.stderr().strip());
    }

    @Test
    void pluginReusingABuiltInNameIsRefusedNamingBoth() {
        Path jar = plugin("header").writeTo(dist.plugins().resolve("header-plugin.jar"));

        RouterProcess.Result refused = RouterProcess.run(dist, Map.of(), "check");

        assertEquals(1, refused.exitCode());
        assertTrue(refused.stderr().matches("insika-router: key extractor \\[header] is provided twice: by the "
                + "built-ins \\(.*router-strategies.*\\) and by " + java.util.regex.Pattern.quote(jar.toString()) + "\\s*"),
                refused.stderr());
    }

    @Test
    void unreadableJarIsRefusedNamingIt() throws Exception {
        Path jar = java.nio.file.Files.writeString(dist.plugins().resolve("truncated.jar"), "not a zip");

        RouterProcess.Result refused = RouterProcess.run(dist, Map.of(), "check");

        assertEquals(1, refused.exitCode());
        assertTrue(refused.stderr().startsWith("insika-router: " + jar + " cannot be read as a jar"), refused.stderr());
    }

    private PluginJarBuilder plugin(String extractorType) {
        return new PluginJarBuilder(dist.routerApiJar())
                .source("TenantKeyExtractorProvider", TENANT_EXTRACTOR.formatted(extractorType))
                .source("DigitModRouteStrategyProvider", DIGIT_STRATEGY)
                .service(EXTRACTOR_SPI, "example.TenantKeyExtractorProvider")
                .service(STRATEGY_SPI, "example.DigitModRouteStrategyProvider")
                .version("2.1.0");
    }
}
