package io.insika.router.server.config;

import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Optional;

import io.insika.router.server.testing.FixturePlugins;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import static org.hamcrest.MatcherAssert.assertThat;
import static org.hamcrest.Matchers.contains;
import static org.hamcrest.Matchers.containsString;
import static org.hamcrest.Matchers.hasSize;
import static org.hamcrest.Matchers.startsWith;
import static org.junit.jupiter.api.Assertions.assertThrows;

/** Misspelt keys, broken routes, unknown plugins and unreadable files stop the start. */
class StructureValidationTest {

    private static final String KNOWN_STRATEGIES = "(known: fixture-picky, fixture-throwing, fixture-two-at-most, ketama,"
            + " rendezvous, round-robin)";

    @TempDir
    Path dir;
    private ConfigFiles files;

    @BeforeEach
    void setUp() {
        files = new ConfigFiles(dir);
    }

    @Test
    void aMisspeltKeyAnywhereIsRejectedWithTheKeysThatWouldBeValid() {
        assertThat(files.problems("strategey: { name: ketama }"), contains(
                "strategey: unknown key (expected one of: " + TableKeys.topLevel() + ")"));
        assertThat(files.problems("server: { prot: 1 }\nbackends: { dns: { name: a.test, port: 1, intreval: 2 } }"),
                contains("backends.dns.intreval: unknown key (expected one of: " + TableKeys.under("backends.dns") + ")",
                        "server.prot: unknown key (expected one of: " + TableKeys.under("server") + ")"));
        assertThat(files.problems("routes: [ { path: /a, keys: [ { type: json-field, field: f } ], method: [POST] } ]"),
                contains("routes[0].method: unknown key (expected one of: keys, learn, max-redirects, methods, on-miss, path,"
                        + " redirect-origins)"));
    }

    @Test
    void anUnknownStrategyIsRejectedListingEveryKnownName() {
        assertThat(files.problems("strategy: { name: ketamma }"), contains("strategy.name: [ketamma] " + KNOWN_STRATEGIES));
        assertThat(files.problems("", Map.of("INSIKA_ROUTER_STRATEGY", "maglev")),
                contains("INSIKA_ROUTER_STRATEGY: [maglev] " + KNOWN_STRATEGIES));
    }

    @Test
    void anUnknownExtractorTypeIsRejectedListingEveryKnownType() {
        List<String> problems = files.problems("routes: [ { path: /a, keys: [ { type: jsn-field, field: user } ] } ]");

        assertThat(problems, hasSize(1));
        assertThat(problems.getFirst(), startsWith("routes[0].keys[0].type: [jsn-field] (known: "));
        assertThat(problems.getFirst(), containsString("fixture-header"));
        assertThat(problems.getFirst(), containsString("json-field"));
    }

    @Test
    void aStrategyOptionThePluginRejectsStopsTheStart() {
        assertThat(files.problems("strategy: { name: fixture-picky, options: { level: medium } }"),
                contains("strategy.options.level: [medium] (expected: one of high, low)"));
        assertThat(files.problems("strategy: { name: fixture-picky, options: { levle: low } }"),
                contains("strategy.options.levle: unknown option (known options: level)"));
    }

    @Test
    void anExtractorOptionThePluginRejectsStopsTheStart() {
        assertThat(files.problems("routes: [ { path: /a, keys: [ { type: fixture-header, nmae: X-Session } ] } ]"),
                contains("routes[0].keys[0].nmae: unknown option (known options: name)"));
        assertThat(files.problems("routes: [ { path: /a, keys: [ { type: fixture-header } ] } ]"),
                contains("routes[0].keys[0].name: [] (expected: a header name)"));
    }

    @Test
    void aRouteWithoutPathOrKeysIsRejected() {
        assertThat(files.problems("routes: [ { methods: [POST], keys: [ { type: json-field, field: user } ] } ]"),
                contains("routes[0].path: [] (expected: a path template starting with /, such as /channels/{id}/messages)"));
        assertThat(files.problems("routes: [ { path: /a }, { path: /b, keys: [] } ]"), contains(
                "routes[0].keys: [] (expected: a list of one or more key extractors, such as [{type: json-field, field: user}])",
                "routes[1].keys: [a list] (expected: a list of one or more key extractors, such as "
                        + "[{type: json-field, field: user}])"));
        assertThat(files.problems("routes: [ { path: /a, keys: [ { field: user } ] } ]"),
                contains("routes[0].keys[0].type: [] (expected: an extractor type, such as json-field)"));
    }

    @Test
    void aMalformedPathTemplateOrMethodIsRejected() {
        assertThat(files.problems("routes: [ { path: v1/x, keys: [ { type: json-field, field: user } ] } ]"),
                contains("routes[0].path: [v1/x] (expected: a path starting with /)"));
        assertThat(files.problems("routes: [ { methods: [\"PO ST\"], path: /x, keys: [ { type: json-field, field: u } ] } ]"),
                contains("routes[0].methods[0]: [PO ST] (expected: an HTTP method such as POST)"));
    }

    @Test
    void aPathThatNoNormalRequestPathCouldMatchIsRejectedWithItsNormalForm() {
        assertThat(files.problems("routes: [ { path: /v1//x, keys: [ { type: json-field, field: user } ] } ]"),
                contains("routes[0].path: [/v1//x] (expected: a path in the normal form requests are matched in,"
                        + " such as /v1/x)"));
        assertThat(files.problems("routes: [ { path: /a/./%6dcp, keys: [ { type: json-field, field: user } ] } ]"),
                contains("routes[0].path: [/a/./%6dcp] (expected: a path in the normal form requests are matched in,"
                        + " such as /a/mcp)"));
    }

    @Test
    void aListOrMappingWhereAValueBelongsIsRejected() {
        assertThat(files.problems("server: { port: [1, 2] }\nroutes: { path: /a }"), contains(
                "server.port: [a list] (expected: a single value)",
                "routes: [a mapping] (expected: a list of routes, each with path and keys)"));
    }

    @Test
    void aYamlSyntaxErrorIsOneLineWithItsPosition() {
        List<String> problems = files.problems("server:\n  port: [9090\n");

        assertThat(problems, hasSize(1));
        assertThat(problems.getFirst(), startsWith(dir.resolve("insika-router.yaml") + ": line 3, column 1: "));
        assertThat(problems.getFirst(), containsString("(expected: valid YAML)"));
    }

    @Test
    void aDocumentThatIsNotAMappingIsRejected() {
        assertThat(files.problems("- server\n- port\n"), contains(dir.resolve("insika-router.yaml")
                + ": [not a mapping] (expected: a YAML mapping of keys such as server, backends, routes)"));
    }

    @Test
    void aMissingFileIsRejectedNamingWhereItsPathCameFrom() {
        RouterConfigLoader loader = new RouterConfigLoader(FixturePlugins.registry());
        Path missing = dir.resolve("nope.yaml");

        ConfigException fromVariable = assertThrows(ConfigException.class,
                () -> loader.load(Optional.empty(), Map.of("INSIKA_ROUTER_CONFIG", missing.toString())));
        ConfigException fromCommandLine = assertThrows(ConfigException.class,
                () -> loader.load(Optional.of(missing), Map.of()));

        assertThat(fromVariable.problems(), contains("INSIKA_ROUTER_CONFIG: [" + missing + "] (expected: a readable YAML file)"));
        assertThat(fromCommandLine.problems(), contains("--config: [" + missing + "] (expected: a readable YAML file)"));
    }

    @Test
    void aFileThatIsNotUtf8IsRejectedAsSuch() throws Exception {
        RouterConfigLoader loader = new RouterConfigLoader(FixturePlugins.registry());
        Path latin1 = java.nio.file.Files.write(dir.resolve("latin1.yaml"),
                "server:\n  host: caf\u00e9\n".getBytes(java.nio.charset.StandardCharsets.ISO_8859_1));

        ConfigException e = assertThrows(ConfigException.class, () -> loader.load(Optional.of(latin1), Map.of()));

        assertThat(e.problems(), contains("--config: [" + latin1 + "] (expected: YAML in UTF-8; found bytes that are"
                + " not UTF-8)"));
    }
}
