package io.insika.router.server.config;

import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.TreeSet;

/**
 * The YAML's schema, walked against the tree so that a misspelt key ({@code strategey},
 * {@code body-max-byte}) stops the start instead of silently leaving a default in place. Only
 * key names are checked here; the readers check values and shapes. The names are the keys of
 * {@link Settings}; only the insides of lists and mappings are written here.
 */
final class KnownKeys {

    /** A node's expected shape: a mapping of known keys, a list of one shape, or anything. */
    private sealed interface Shape {
    }

    private record Fields(Map<String, Shape> fields) implements Shape {
    }

    private record Items(Shape item) implements Shape {
    }

    /** A scalar, or free-form content a plugin checks itself (strategy and extractor options). */
    private record Open() implements Shape {
    }

    private static final Shape OPEN = new Open();

    // The shapes inside the keys that are not scalars; every other key is a scalar row of Settings.
    private static final Map<String, Shape> STRUCTURED = Map.of(
            Settings.STRATEGY_OPTIONS.key(), OPEN,
            Settings.BACKENDS_STATIC.key(), new Items(new Fields(Map.of("url", OPEN, "weight", OPEN, "id", OPEN,
                    "public-address", OPEN, "max-requests", OPEN, "max-tunnels", OPEN))),
            Settings.ROUTES.key(), new Items(new Fields(Map.of("methods", OPEN, "path", OPEN, "keys", new Items(OPEN),
                    "on-miss", OPEN, "redirect-origins", OPEN, "max-redirects", OPEN,
                    "learn", new Fields(Map.of("header", OPEN, "cookie", OPEN, "unknown-owner-status", OPEN,
                            "bad-seal", OPEN))))));

    private static final Shape SCHEMA = tree(leaves());

    private KnownKeys() {
    }

    /**
     * Reports every key the schema does not know.
     *
     * @param root     the YAML tree
     * @param problems where each unknown key is added, one line each
     */
    static void check(YamlNode root, List<String> problems) {
        walk(root, SCHEMA, "", problems);
    }

    /** Each key of the table by its dotted path: a scalar, or the shape written above. */
    private static Map<String, Shape> leaves() {
        Map<String, Shape> leaves = new HashMap<>();
        for (ConfigKey key : Settings.all()) {
            Shape shape = switch (key) {
                case Setting<?> scalar -> OPEN;
                case StructuredKey structured -> Objects.requireNonNull(STRUCTURED.get(structured.key()),
                        () -> "no shape for " + structured.key());
            };
            leaves.put(key.key(), shape);
        }
        return leaves;
    }

    /** Nests dotted paths: {@code server.port} becomes field {@code port} of field {@code server}. */
    private static Fields tree(Map<String, Shape> byPath) {
        Map<String, Shape> fields = new HashMap<>();
        Map<String, Map<String, Shape>> sections = new HashMap<>();
        byPath.forEach((path, shape) -> {
            int dot = path.indexOf('.');
            if (dot < 0) {
                fields.put(path, shape);
            } else {
                sections.computeIfAbsent(path.substring(0, dot), name -> new HashMap<>())
                        .put(path.substring(dot + 1), shape);
            }
        });
        sections.forEach((name, section) -> fields.put(name, tree(section)));
        return new Fields(Map.copyOf(fields));
    }

    private static void walk(YamlNode node, Shape shape, String path, List<String> problems) {
        switch (shape) {
            case Fields fields when node.type() == YamlNode.Type.OBJECT -> {
                List<YamlNode> children = new java.util.ArrayList<>(node.children());
                children.sort(java.util.Comparator.comparing(YamlNode::name));
                for (YamlNode child : children) {
                    String childPath = path.isEmpty() ? child.name() : path + "." + child.name();
                    Shape childShape = fields.fields().get(child.name());
                    if (childShape == null) {
                        problems.add(childPath + ": unknown key (expected one of: "
                                + String.join(", ", new TreeSet<>(fields.fields().keySet())) + ")");
                    } else {
                        walk(child, childShape, childPath, problems);
                    }
                }
            }
            case Items items when node.type() == YamlNode.Type.LIST -> {
                List<YamlNode> children = node.children();
                for (int i = 0; i < children.size(); i++) {
                    walk(children.get(i), items.item(), path + "[" + i + "]", problems);
                }
            }
            default -> {
                // a scalar, open content, or a shape mismatch the readers report with the value
            }
        }
    }
}
