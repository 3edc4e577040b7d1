package io.insika.router.server.config;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.stream.Stream;

import io.insika.router.server.Router;
import io.insika.router.server.testing.FixturePlugins;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.yaml.snakeyaml.Yaml;

import static org.hamcrest.MatcherAssert.assertThat;
import static org.hamcrest.Matchers.empty;
import static org.hamcrest.Matchers.everyItem;
import static org.hamcrest.Matchers.hasItem;
import static org.hamcrest.Matchers.hasItems;
import static org.hamcrest.Matchers.isIn;
import static org.hamcrest.Matchers.is;
import static org.hamcrest.Matchers.notNullValue;

/** The Kubernetes manifests in docs/deploy parse, hold together, and configure a valid router. */
class DeployManifestsTest {

    private static final Path DEPLOY = Path.of("../docs/deploy");
    // the build's version (the parent pom gives it to every test run): the image's tag
    private static final String VERSION = System.getProperty("insika.version");
    // https://kubernetes.io/docs/concepts/overview/working-with-objects/common-labels/
    private static final List<String> RECOMMENDED_LABELS = List.of("app.kubernetes.io/name",
            "app.kubernetes.io/instance", "app.kubernetes.io/component", "app.kubernetes.io/part-of",
            "app.kubernetes.io/managed-by");
    // what a selector may name: the labels that never change over an application instance's life
    private static final Set<String> SELECTOR_LABELS = Set.of("app.kubernetes.io/name", "app.kubernetes.io/instance");
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
        assertThat(liveness.get("port"), is("admin"));
    }

    @Test
    void theRoutersPortsAreTheOnesItListensOnByDefault() {
        Map<String, Object> router = container("insika-router");
        Map<String, Object> server = map(routerYaml().get("server"));

        assertThat(list(router.get("ports")), hasItems(
                Map.of("name", "http", "containerPort", Settings.PORT.fallback()),
                Map.of("name", "admin", "containerPort", Settings.ADMIN_PORT.fallback())));
        assertThat(environment(router).get(Settings.PORT.variable().orElseThrow()), is(String.valueOf(Settings.PORT.fallback())));
        assertThat(server.get("port"), is(Settings.PORT.fallback()));
        assertThat(server.get("admin-port"), is(Settings.ADMIN_PORT.fallback()));
    }

    @Test
    void everyProbeOfTheRouterIsAnsweredOkByARunningRouter(@TempDir Path dir) throws Exception {
        Map<String, Object> container = container("insika-router");
        List<String> kinds = Stream.of("startupProbe", "readinessProbe", "livenessProbe")
                .filter(container::containsKey).toList();
        Path yaml = Files.writeString(dir.resolve("insika-router.yaml"), """
                server: { host: 127.0.0.1, port: 0, admin-port: 0, shutdown-grace: 0s }
                backends:
                  static: [http://127.0.0.1:9]
                """);
        List<String> answers = new ArrayList<>();
        try (Router router = Router.start(new RouterConfigLoader(FixturePlugins.registry()).load(Optional.of(yaml),
                Map.of()), FixturePlugins.registry()); HttpClient client = HttpClient.newHttpClient()) {
            for (String kind : kinds) {
                Map<String, Object> probe = map(map(container.get(kind)).get("httpGet"));
                int port = switch ((String) probe.get("port")) {
                    case "http" -> router.port();
                    case "admin" -> router.adminPort();
                    default -> throw new AssertionError(kind + " on an unknown port: " + probe.get("port"));
                };
                HttpResponse<Void> answer = client.send(HttpRequest.newBuilder(
                        URI.create("http://127.0.0.1:" + port + probe.get("path"))).build(),
                        HttpResponse.BodyHandlers.discarding());
                answers.add(kind + " " + probe.get("path") + " " + answer.statusCode());
            }
        }

        assertThat(kinds, hasItems("readinessProbe", "livenessProbe"));
        assertThat(answers, everyItem(org.hamcrest.Matchers.endsWith(" 200")));
    }

    @Test
    void theRouterRunsTheImageTheBuildMakesAndItsLabelsSayItsVersion() {
        assertThat(container("insika-router").get("image"), is("insika-router:" + VERSION));
        for (Map<String, Object> labels : everyLabelSet()) {
            if ("insika-router".equals(labels.get("app.kubernetes.io/name"))) {
                assertThat(labels.toString(), labels.get("app.kubernetes.io/version"), is(VERSION));
            }
        }
    }

    @Test
    void everyObjectAndEveryPodCarriesTheRecommendedLabels() {
        for (Map<String, Object> labels : everyLabelSet()) {
            assertThat(labels.toString(), labels.keySet(), hasItems(RECOMMENDED_LABELS.toArray(String[]::new)));
        }
    }

    @Test
    void everySelectorNamesTheStableLabelsOfOneDeploymentsPods() {
        List<Map<String, Object>> selectors = new ArrayList<>();
        for (Map<String, Object> object : OBJECTS) {
            Map<String, Object> spec = map(object.get("spec"));
            switch ((String) object.get("kind")) {
                case "Deployment", "PodDisruptionBudget" -> selectors.add(map(map(spec.get("selector")).get("matchLabels")));
                case "Service" -> selectors.add(map(spec.get("selector")));
                case "NetworkPolicy" -> selectors.add(map(map(spec.get("podSelector")).get("matchLabels")));
                default -> { }
            }
        }
        for (Map<String, Object> deployment : ofKind("Deployment")) {
            for (Object constraint : list(podSpec(deployment).getOrDefault("topologySpreadConstraints", List.of()))) {
                selectors.add(map(map(map(constraint).get("labelSelector")).get("matchLabels")));
            }
        }

        assertThat(selectors.size() >= 9, is(true));
        for (Map<String, Object> selector : selectors) {
            assertThat(selector.keySet(), is(SELECTOR_LABELS));
            podSpecSelectedBy(selector);
        }
    }

    @Test
    void everyDeploymentHasADisruptionBudgetThatEvictsOnePodAtATime() {
        for (Map<String, Object> deployment : ofKind("Deployment")) {
            List<Map<String, Object>> budgets = ofKind("PodDisruptionBudget").stream()
                    .filter(b -> podLabels(deployment).entrySet().containsAll(
                            map(map(map(b.get("spec")).get("selector")).get("matchLabels")).entrySet()))
                    .toList();

            assertThat(name(deployment), budgets.size(), is(1));
            assertThat(budgets.getFirst().get("apiVersion"), is("policy/v1"));
            assertThat(map(budgets.getFirst().get("spec")).get("maxUnavailable"), is(1));
        }
    }

    @Test
    void everyDeploymentSpreadsItsPodsAcrossNodes() {
        for (Map<String, Object> deployment : ofKind("Deployment")) {
            Object constraints = podSpec(deployment).get("topologySpreadConstraints");
            assertThat(name(deployment) + " has no topologySpreadConstraints", constraints, notNullValue());
            List<Map<String, Object>> acrossNodes = list(constraints).stream().map(DeployManifestsTest::map)
                    .filter(c -> "kubernetes.io/hostname".equals(c.get("topologyKey")))
                    .filter(c -> podLabels(deployment).entrySet().containsAll(
                            map(map(c.get("labelSelector")).get("matchLabels")).entrySet()))
                    .toList();

            assertThat(name(deployment), acrossNodes.size(), is(1));
            assertThat(acrossNodes.getFirst().get("maxSkew"), is(1));
        }
    }

    @Test
    void onlyTheMonitoringNamespaceReachesTheRoutersAdminPortAndAnyoneItsProxyPort() {
        Map<String, Object> spec = map(one("NetworkPolicy", "insika-router").get("spec"));
        assertThat(podLabels(one("Deployment", "insika-router")).entrySet()
                .containsAll(map(map(spec.get("podSelector")).get("matchLabels")).entrySet()), is(true));
        assertThat(list(spec.get("policyTypes")), hasItem("Ingress"));
        Map<String, Object> monitoring = Map.of("namespaceSelector",
                Map.of("matchLabels", Map.of("kubernetes.io/metadata.name", "monitoring")));

        List<String> wrong = new ArrayList<>();
        List<Object> admitted = new ArrayList<>();
        for (Object rule : list(spec.get("ingress"))) {
            Object from = map(rule).get("from");
            List<Object> ports = map(rule).containsKey("ports")
                    ? list(map(rule).get("ports")).stream().map(p -> map(p).get("port")).toList()
                    : List.of("http", "admin"); // a rule without ports admits every port
            admitted.addAll(ports);
            if (ports.contains("admin") && !List.of(monitoring).equals(from)) {
                wrong.add("admin admitted from " + (from == null ? "anywhere" : from));
            }
            if (ports.contains("http") && from != null) {
                wrong.add("http admitted only from " + from);
            }
        }

        assertThat(wrong, empty());
        assertThat(admitted, hasItems("http", "admin"));
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
        Map<String, String> environment = environment(container("insika-router"));
        Path yaml = Files.writeString(dir.resolve("insika-router.yaml"),
                (String) map(one("ConfigMap", "insika-router-config").get("data")).get("insika-router.yaml"));
        environment.remove(EnvironmentOverrides.CONFIG);

        RouterConfig config = new RouterConfigLoader(FixturePlugins.registry()).load(Optional.of(yaml), environment);

        assertThat(config.backends(), is(new DnsBackends("insika-headless.default.svc.cluster.local", 9292,
                java.time.Duration.ofSeconds(15), Optional.empty(), DnsBackends.DEFAULT_TIMEOUT)));
        assertThat(config.origins().of("backends.dns.name"), is(ValueSource.ENVIRONMENT));
    }

    private static Map<String, Object> container(String deployment) {
        return map(list(podSpec(one("Deployment", deployment)).get("containers")).getFirst());
    }

    private static Map<String, String> environment(Map<String, Object> container) {
        Map<String, String> environment = new HashMap<>();
        for (Object variable : list(container.get("env"))) {
            environment.put((String) map(variable).get("name"), (String) map(variable).get("value"));
        }
        return environment;
    }

    private static Map<String, Object> routerYaml() {
        String yaml = (String) map(one("ConfigMap", "insika-router-config").get("data")).get("insika-router.yaml");
        return map(new Yaml().load(yaml));
    }

    private static Map<String, Object> podSpec(Map<String, Object> deployment) {
        return map(map(map(deployment.get("spec")).get("template")).get("spec"));
    }

    private static Map<String, Object> podLabels(Map<String, Object> deployment) {
        return map(map(map(map(deployment.get("spec")).get("template")).get("metadata")).get("labels"));
    }

    /** The labels of every object, and of every Deployment's pods. */
    private static List<Map<String, Object>> everyLabelSet() {
        List<Map<String, Object>> labels = new ArrayList<>();
        for (Map<String, Object> object : OBJECTS) {
            Object own = map(object.get("metadata")).get("labels");
            labels.add(own == null ? Map.of("object", name(object)) : map(own));
        }
        ofKind("Deployment").forEach(d -> labels.add(podLabels(d)));
        return labels;
    }

    private static String name(Map<String, Object> object) {
        return object.get("kind") + " " + map(object.get("metadata")).get("name");
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
