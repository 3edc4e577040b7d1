package io.insika.router.server.config;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.stream.Stream;

import io.insika.router.server.testing.FixturePlugins;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.yaml.snakeyaml.Yaml;

import static org.hamcrest.MatcherAssert.assertThat;
import static org.hamcrest.Matchers.everyItem;
import static org.hamcrest.Matchers.hasItem;
import static org.hamcrest.Matchers.isIn;
import static org.hamcrest.Matchers.is;
import static org.hamcrest.Matchers.notNullValue;

/** The Kubernetes manifests in docs/deploy parse, hold together, and configure a valid router. */
class DeployManifestsTest {

    private static final Path DEPLOY = Path.of("../docs/deploy");
    private static final List<Map<String, Object>> OBJECTS = new ArrayList<>();

    @BeforeAll
    static void parse() throws IOException {
        try (Stream<Path> files = Files.list(DEPLOY)) {
            for (Path file : files.filter(f -> f.toString().endsWith(".yaml")).sorted().toList()) {
                for (Object document : new Yaml().loadAll(Files.readString(file))) {
                    if (document != null) {
                        OBJECTS.add(map(document));
                    }
                }
            }
        }
    }

    @Test
    void everyDocumentIsAKubernetesObject() {
        assertThat(OBJECTS.size() >= 5, is(true));
        for (Map<String, Object> object : OBJECTS) {
            assertThat(object.get("apiVersion"), notNullValue());
            assertThat(object.get("kind"), notNullValue());
            assertThat(map(object.get("metadata")).get("name"), notNullValue());
        }
    }

    @Test
    void theEnginesServiceIsHeadless() {
        assertThat(spec("Service", "insika-headless").get("clusterIP"), is("None"));
    }

    @Test
    void everyDeploymentSelectsItsOwnPodsAndEveryServiceSelectsADeploymentsPorts() {
        for (Map<String, Object> deployment : ofKind("Deployment")) {
            assertThat(deployment.get("apiVersion"), is("apps/v1"));
            Map<String, Object> spec = map(deployment.get("spec"));
            Map<String, Object> template = map(spec.get("template"));
            assertThat(map(map(spec.get("selector")).get("matchLabels")).entrySet(),
                    everyItem(isIn(map(map(template.get("metadata")).get("labels")).entrySet())));
        }
        for (Map<String, Object> service : ofKind("Service")) {
            Map<String, Object> selector = map(map(service.get("spec")).get("selector"));
            Map<String, Object> podSpec = podSpecSelectedBy(selector);
            List<Object> containerPorts = list(map(list(podSpec.get("containers")).getFirst()).get("ports"))
                    .stream().flatMap(p -> Stream.of(map(p).get("name"), map(p).get("containerPort"))).toList();
            for (Object port : list(map(service.get("spec")).get("ports"))) {
                assertThat(containerPorts, hasItem(map(port).getOrDefault("targetPort", map(port).get("port"))));
            }
        }
    }

    @Test
    void theRouterIsProbedOnItsAdminPort() {
        Map<String, Object> router = container("insika-router");
        Map<String, Object> readiness = map(map(router.get("readinessProbe")).get("httpGet"));
        Map<String, Object> liveness = map(map(router.get("livenessProbe")).get("httpGet"));

        assertThat(readiness.get("path"), is("/observe/health/ready"));
        assertThat(liveness.get("path"), is("/observe/health/live"));
        assertThat(readiness.get("port"), is("admin"));
        assertThat(list(router.get("ports")), hasItem(Map.of("name", "admin", "containerPort", Settings.ADMIN_PORT.fallback())));
    }

    @Test
    void theRouterRunsAsItsNonRootUserOnAReadOnlyRootWithoutPrivileges() {
        Map<String, Object> security = map(container("insika-router").get("securityContext"));

        assertThat(security.get("runAsNonRoot"), is(true));
        assertThat(security.get("runAsUser"), is(10001)); // the image's user (ImageTest in distribution)
        assertThat(security.get("readOnlyRootFilesystem"), is(true));
        assertThat(security.get("allowPrivilegeEscalation"), is(false));
        assertThat(map(security.get("capabilities")).get("drop"), is(List.of("ALL")));
    }

    @Test
    void theRoutersEnvironmentAndConfigMapMakeAValidDnsConfiguration(@TempDir Path dir) throws IOException {
        Map<String, String> environment = new HashMap<>();
        for (Object variable : list(container("insika-router").get("env"))) {
            environment.put((String) map(variable).get("name"), (String) map(variable).get("value"));
        }
        Path yaml = Files.writeString(dir.resolve("insika-router.yaml"),
                (String) map(one("ConfigMap", "insika-router-config").get("data")).get("insika-router.yaml"));
        environment.remove(EnvironmentOverrides.CONFIG);

        RouterConfig config = new RouterConfigLoader(FixturePlugins.registry()).load(Optional.of(yaml), environment);

        assertThat(config.backends(), is(new DnsBackends("insika-headless.default.svc.cluster.local", 9292,
                java.time.Duration.ofSeconds(15), Optional.empty(), DnsBackends.DEFAULT_TIMEOUT)));
        assertThat(config.origins().of("backends.dns.name"), is(ValueSource.ENVIRONMENT));
    }

    private static Map<String, Object> container(String deployment) {
        Map<String, Object> podSpec = map(map(spec("Deployment", deployment).get("template")).get("spec"));
        return map(list(podSpec.get("containers")).getFirst());
    }

    private static Map<String, Object> podSpecSelectedBy(Map<String, Object> selector) {
        return ofKind("Deployment").stream()
                .map(d -> map(map(d.get("spec")).get("template")))
                .filter(t -> map(map(t.get("metadata")).get("labels")).entrySet().containsAll(selector.entrySet()))
                .map(t -> map(t.get("spec")))
                .findFirst().orElseThrow(() -> new AssertionError("no Deployment's pods match " + selector));
    }

    private static Map<String, Object> spec(String kind, String name) {
        return map(one(kind, name).get("spec"));
    }

    private static Map<String, Object> one(String kind, String name) {
        return ofKind(kind).stream().filter(o -> name.equals(map(o.get("metadata")).get("name"))).findFirst()
                .orElseThrow(() -> new AssertionError("no " + kind + " named " + name + " in " + DEPLOY));
    }

    private static List<Map<String, Object>> ofKind(String kind) {
        return OBJECTS.stream().filter(o -> kind.equals(o.get("kind"))).toList();
    }

    @SuppressWarnings("unchecked")
    private static Map<String, Object> map(Object node) {
        return (Map<String, Object>) node;
    }

    @SuppressWarnings("unchecked")
    private static List<Object> list(Object node) {
        return (List<Object>) node;
    }
}
