package io.insika.router.server.config;

import java.util.List;
import java.util.Map;
import java.util.TreeSet;

import io.helidon.config.Config;

/**
 * The YAML's schema, walked against the tree so that a misspelt key ({@code strategey},
 * {@code body-max-byte}) stops the start instead of silently leaving a default in place. Only
 * key names are checked here; the readers check values and shapes.
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

    private static final Shape SCHEMA = new Fields(Map.of(
            "server", new Fields(Map.of("host", OPEN, "port", OPEN, "admin-port", OPEN, "shutdown-grace", OPEN,
                    "stop-delay", OPEN, "max-connections", OPEN)),
            "strategy", new Fields(Map.of("name", OPEN, "options", OPEN, "allow-change-on-reload", OPEN)),
            "backends", new Fields(Map.of(
                    "max-requests", OPEN, "max-tunnels", OPEN,
                    "static", new Items(new Fields(Map.of("url", OPEN, "weight", OPEN, "id", OPEN,
                            "public-address", OPEN, "max-requests", OPEN, "max-tunnels", OPEN))),
                    "dns", new Fields(Map.of("name", OPEN, "port", OPEN, "interval", OPEN, "resolver", OPEN,
                            "timeout", OPEN, "id", OPEN, "public-address", OPEN)))),
            "proxy", new Fields(Map.of("body-max-bytes", OPEN, "backend-timeout", OPEN, "client-body-timeout", OPEN,
                    "client-send-timeout", OPEN, "trusted-proxies", OPEN, "max-requests", OPEN, "peek-budget", OPEN,
                    "access-log", OPEN)),
            "logging", new Fields(Map.of("format", OPEN)),
            "health", new Fields(Map.of("down-time", OPEN, "path", OPEN, "interval", OPEN, "timeout", OPEN)),
            "sessions", new Fields(Map.of("secret-file", OPEN, "previous-secret-file", OPEN)),
            "routes", new Items(new Fields(Map.of("methods", OPEN, "path", OPEN, "keys", new Items(OPEN),
                    "on-miss", OPEN, "redirect-origins", OPEN, "max-redirects", OPEN,
                    "learn", new Fields(Map.of("header", OPEN, "cookie", OPEN, "unknown-owner-status", OPEN,
                            "bad-seal", OPEN)))))));

    private KnownKeys() {
    }

    /**
     * Reports every key the schema does not know.
     *
     * @param root     the YAML tree
     * @param problems where each unknown key is added, one line each
     */
    static void check(Config root, List<String> problems) {
        walk(root, SCHEMA, "", problems);
    }

    private static void walk(Config node, Shape shape, String path, List<String> problems) {
        switch (shape) {
            case Fields fields when node.type() == Config.Type.OBJECT -> {
                List<Config> children = new java.util.ArrayList<>(node.asNodeList().orElse(List.of()));
                children.sort(java.util.Comparator.comparing(Config::name));
                for (Config child : children) {
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
            case Items items when node.type() == Config.Type.LIST -> {
                List<Config> children = node.asNodeList().orElse(List.of());
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
