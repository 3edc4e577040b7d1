package io.insika.router.server.config;

import java.util.List;

import org.junit.jupiter.api.Test;

import static org.hamcrest.MatcherAssert.assertThat;
import static org.hamcrest.Matchers.contains;
import static org.hamcrest.Matchers.is;
import static org.junit.jupiter.api.Assertions.assertThrows;

/** The configuration file as a tree: what each YAML form reads as, and what is refused. */
class YamlNodeTest {

    @Test
    void everyScalarIsItsTextAsSnakeYamlResolvesIt() {
        YamlNode root = YamlNode.parse("""
                port: 8080
                enabled: yes
                disabled: no
                hex: 0x1F
                grouped: 1_000
                quoted: "0x1F"
                empty:
                tilde: ~
                blank: ""
                """, "t");

        assertThat(root.get("port").asString().orElseThrow(), is("8080"));
        assertThat(root.get("enabled").asString().orElseThrow(), is("true"));
        assertThat(root.get("disabled").asString().orElseThrow(), is("false"));
        assertThat(root.get("hex").asString().orElseThrow(), is("31"));
        assertThat(root.get("grouped").asString().orElseThrow(), is("1000"));
        assertThat(root.get("quoted").asString().orElseThrow(), is("0x1F"));
        assertThat(root.get("empty").type(), is(YamlNode.Type.VALUE));
        assertThat(root.get("empty").asString().orElseThrow(), is(""));
        assertThat(root.get("tilde").asString().orElseThrow(), is(""));
        assertThat(root.get("blank").asString().orElseThrow(), is(""));
    }

    @Test
    void aDottedKeyIsAPathAndMergesWithItsNestedSection() {
        YamlNode root = YamlNode.parse("server:\n  port: 80\nserver.host: a.test\nbackends.dns.name: b.test\n", "t");

        assertThat(root.get("server.port").asString().orElseThrow(), is("80"));
        assertThat(root.get("server.host").asString().orElseThrow(), is("a.test"));
        assertThat(root.get("backends").get("dns").get("name").asString().orElseThrow(), is("b.test"));
        assertThat(root.get("server").children().stream().map(YamlNode::name).toList(), contains("port", "host"));
    }

    @Test
    void listsAndMappingsKeepFileOrderAndItemsAreNamedByIndex() {
        YamlNode root = YamlNode.parse("routes:\n  - path: /b\n    keys: [x, y]\n  - path: /a\nz: 1\na: 2\n", "t");

        assertThat(root.children().stream().map(YamlNode::name).toList(), contains("routes", "z", "a"));
        YamlNode routes = root.get("routes");
        assertThat(routes.type(), is(YamlNode.Type.LIST));
        assertThat(routes.children().stream().map(YamlNode::name).toList(), contains("0", "1"));
        assertThat(root.get("routes.1.path").asString().orElseThrow(), is("/a"));
        assertThat(root.get("routes.0.keys.1").asString().orElseThrow(), is("y"));
        assertThat(root.get("routes.2").exists(), is(false));
        assertThat(root.get("routes.x").exists(), is(false));
    }

    @Test
    void emptyContainersExistAndMissingNodesHaveNothing() {
        YamlNode root = YamlNode.parse("l: []\nm: {}\n", "t");

        assertThat(root.get("l").type(), is(YamlNode.Type.LIST));
        assertThat(root.get("m").type(), is(YamlNode.Type.OBJECT));
        assertThat(root.get("l").children(), is(List.of()));
        YamlNode missing = root.get("m.nothing.deeper");
        assertThat(missing.exists(), is(false));
        assertThat(missing.asString().isPresent(), is(false));
        assertThat(missing.children(), is(List.of()));
        assertThat(root.get("l").asString().isPresent(), is(false));
    }

    @Test
    void anEmptyDocumentIsAnEmptyMapping() {
        for (String text : List.of("", "# only a comment\n", "---\n")) {
            YamlNode root = YamlNode.parse(text, "t");
            assertThat(text, root.type(), is(YamlNode.Type.OBJECT));
            assertThat(text, root.children(), is(List.of()));
        }
    }

    @Test
    void anchorsAndMergeKeysAreResolvedWithTheMergedKeyOverridable() {
        YamlNode root = YamlNode.parse("base: &b {x: 1, y: 2}\nuse:\n  <<: *b\n  y: 3\n", "t");

        assertThat(root.get("use.x").asString().orElseThrow(), is("1"));
        assertThat(root.get("use.y").asString().orElseThrow(), is("3"));
    }

    @Test
    void aKeyWrittenTwiceIsRefusedWithItsPosition() {
        ConfigException e = assertThrows(ConfigException.class, () -> YamlNode.parse("routes: []\nport: 1\nroutes: []\n", "f.yaml"));

        assertThat(e.problems(), contains("f.yaml: line 3, column 1: found duplicate key routes (expected: valid YAML)"));
    }

    @Test
    void aKeyGivenDottedAndNestedIsRefusedByItsPath() {
        ConfigException nested = assertThrows(ConfigException.class,
                () -> YamlNode.parse("server:\n  port: 80\nserver.port: 81\n", "f.yaml"));
        ConfigException scalar = assertThrows(ConfigException.class,
                () -> YamlNode.parse("server: 1\nserver.port: 81\n", "f.yaml"));
        ConfigException inList = assertThrows(ConfigException.class,
                () -> YamlNode.parse("routes:\n  - learn: {header: a}\n    learn.header: b\n", "f.yaml"));

        assertThat(nested.problems(), contains(
                "f.yaml: key server.port is given more than once (expected: each key once, whether dotted or nested)"));
        assertThat(scalar.problems(), contains(
                "f.yaml: key server.port is given more than once (expected: each key once, whether dotted or nested)"));
        assertThat(inList.problems(), contains("f.yaml: key routes[0].learn.header is given more than once"
                + " (expected: each key once, whether dotted or nested)"));
    }

    @Test
    void aSelfReferencingAliasIsRefusedInsteadOfOverflowingTheStack() {
        ConfigException list = assertThrows(ConfigException.class, () -> YamlNode.parse("a: &x [*x]\n", "f.yaml"));
        ConfigException map = assertThrows(ConfigException.class, () -> YamlNode.parse("a: &x {b: *x}\n", "f.yaml"));

        for (ConfigException e : List.of(list, map)) {
            assertThat(e.problems(), contains(
                    "f.yaml: [nested deeper than 64 levels] (expected: a configuration, not a self-referencing alias)"));
        }
    }

    @Test
    void aDocumentThatIsNotOneMappingIsRefused() {
        for (String text : List.of("- a\n- b\n", "just text\n", "42\n")) {
            ConfigException e = assertThrows(ConfigException.class, () -> YamlNode.parse(text, "f.yaml"));
            assertThat(text, e.problems(), contains(
                    "f.yaml: [not a mapping] (expected: a YAML mapping of keys such as server, backends, routes)"));
        }
        ConfigException two = assertThrows(ConfigException.class, () -> YamlNode.parse("a: 1\n---\nb: 2\n", "f.yaml"));
        assertThat(two.problems().getFirst(), org.hamcrest.Matchers.startsWith("f.yaml: line 2, column 1: "));
    }

    @Test
    void aHugeOrDeeplyNestedDocumentIsRefusedInOneLine() {
        String huge = "routes:\n" + "  - {path: /x, keys: [{type: json-field, field: user}]}\n".repeat(70_000);
        String deep = "a: " + "[".repeat(200) + "]".repeat(200) + "\n";

        for (String text : List.of(huge, deep)) {
            ConfigException e = assertThrows(ConfigException.class, () -> YamlNode.parse(text, "f.yaml"));
            assertThat(e.problems().size(), is(1));
            assertThat(e.problems().getFirst(), org.hamcrest.Matchers.startsWith("f.yaml: "));
            assertThat(e.problems().getFirst(), org.hamcrest.Matchers.endsWith("(expected: valid YAML)"));
            assertThat(e.problems().getFirst(), org.hamcrest.Matchers.not(org.hamcrest.Matchers.containsString("\n")));
        }
    }

    @Test
    void aKeyThatIsNotTextIsReadAsItsText() {
        YamlNode root = YamlNode.parse("8080: a\n~: b\ntrue: c\n", "t");

        assertThat(root.children().stream().map(YamlNode::name).toList(), contains("8080", "null", "true"));
    }
}
