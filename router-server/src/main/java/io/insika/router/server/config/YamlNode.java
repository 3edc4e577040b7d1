package io.insika.router.server.config;

import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

import org.yaml.snakeyaml.LoaderOptions;
import org.yaml.snakeyaml.Yaml;
import org.yaml.snakeyaml.constructor.SafeConstructor;
import org.yaml.snakeyaml.error.YAMLException;

/**
 * One node of the configuration file, read with SnakeYAML into an immutable tree: a mapping, a
 * list, a scalar's text, or a missing node that any lookup may return. The readers need no more
 * than this, and Helidon's config, which the router used before, spent ~50 ms of every start
 * building its own tree, mappers and sources for the same answers.
 *
 * <p>The tree keeps Helidon's reading so that a file means what it meant: every scalar is its
 * text as SnakeYAML resolves it ({@code 8080}, {@code true}, an empty value is {@code ""}), and
 * a dotted key is a path ({@code server.port: 80} is {@code server: {port: 80}}). Unlike Helidon
 * it refuses a key given twice, whether written twice or once dotted and once nested, instead of
 * keeping one silently.
 */
final class YamlNode {

    /** What a node holds. */
    enum Type {
        /** Nothing at this key. */
        MISSING,
        /** A scalar. */
        VALUE,
        /** A mapping of names to nodes. */
        OBJECT,
        /** A list of nodes. */
        LIST
    }

    // Deeper than any real configuration; it stops a self-referencing alias (a: &x [*x]),
    // which SnakeYAML builds as a cycle, from recursing until the stack overflows.
    private static final int MAX_DEPTH = 64;

    private final String name;
    private final Type type;
    private final String value;
    private final Map<String, YamlNode> members;
    private final List<YamlNode> items;

    private YamlNode(String name, Type type, String value, Map<String, YamlNode> members, List<YamlNode> items) {
        this.name = name;
        this.type = type;
        this.value = value;
        this.members = members;
        this.items = items;
    }

    /**
     * Reads a YAML document whose top is a mapping; an empty document is an empty mapping.
     *
     * @param text the document
     * @param file how problems name it: a path, or the embedded default's resource name
     * @return the root, named {@code ""}
     * @throws ConfigException with one line saying where and what, when it is not such a document
     */
    static YamlNode parse(String text, String file) {
        LoaderOptions options = new LoaderOptions();
        options.setAllowDuplicateKeys(false);
        Object document;
        try {
            // the safe constructor builds only maps, lists and scalars, never a named class
            document = new Yaml(new SafeConstructor(options)).load(text);
        } catch (YAMLException e) {
            throw new ConfigException(List.of(YamlSyntax.describe(file, e)));
        }
        if (document == null) {
            return object("", Map.of());
        }
        if (!(document instanceof Map<?, ?> map)) {
            throw new ConfigException(List.of(file
                    + ": [not a mapping] (expected: a YAML mapping of keys such as server, backends, routes)"));
        }
        return object("", "", map, file, 0);
    }

    /**
     * The node at a dotted key below this one: {@code "server.port"}, or {@code "routes.0.path"}
     * with a list's index; a missing node when there is none.
     */
    YamlNode get(String key) {
        YamlNode node = this;
        for (String part : key.split("\\.", -1)) {
            node = node.child(part);
        }
        return node;
    }

    boolean exists() {
        return type != Type.MISSING;
    }

    Type type() {
        return type;
    }

    /** The key of this node in its mapping, its index in its list, or {@code ""} for the root. */
    String name() {
        return name;
    }

    /** A scalar's text; empty for any other node. */
    Optional<String> asString() {
        return type == Type.VALUE ? Optional.of(value) : Optional.empty();
    }

    /** A mapping's members in file order, or a list's items; none for a scalar or a missing node. */
    List<YamlNode> children() {
        return switch (type) {
            case OBJECT -> List.copyOf(members.values());
            case LIST -> items;
            default -> List.of();
        };
    }

    @Override
    public String toString() {
        return switch (type) {
            case MISSING -> "(missing " + name + ")";
            case VALUE -> name + "=" + value;
            case OBJECT -> name + members.values();
            case LIST -> name + items;
        };
    }

    private YamlNode child(String part) {
        return switch (type) {
            case OBJECT -> members.getOrDefault(part, missing(part));
            case LIST -> index(part).filter(i -> i < items.size()).map(items::get).orElse(missing(part));
            default -> missing(part);
        };
    }

    private static Optional<Integer> index(String part) {
        if (part.isEmpty() || part.length() > 9 || !part.chars().allMatch(c -> c >= '0' && c <= '9')) {
            return Optional.empty();
        }
        return Optional.of(Integer.parseInt(part));
    }

    private static YamlNode missing(String name) {
        return new YamlNode(name, Type.MISSING, null, Map.of(), List.of());
    }

    private static YamlNode object(String name, Map<String, YamlNode> members) {
        return new YamlNode(name, Type.OBJECT, null, members, List.of());
    }

    private static YamlNode object(String path, String name, Map<?, ?> map, String file, int depth) {
        Map<String, Object> nested = new LinkedHashMap<>();
        String prefix = path.isEmpty() ? "" : path + ".";
        map.forEach((key, value) -> place(nested, prefix, String.valueOf(key), value, file));
        Map<String, YamlNode> members = new LinkedHashMap<>();
        nested.forEach((key, value) -> members.put(key, node(prefix + key, key, value, file, depth + 1)));
        return object(name, members);
    }

    /**
     * Puts an entry at its key's path: {@code a.b: v} as {@code a: {b: v}}, merged with what
     * other entries put under {@code a}; a key two entries both set is refused.
     */
    private static void place(Map<String, Object> into, String prefix, String key, Object value, String file) {
        int dot = key.indexOf('.');
        String name = dot < 0 ? key : key.substring(0, dot);
        // a singleton map, not Map.of: "a.b:" with no value is a null value
        Object placed = dot < 0 ? value : Collections.singletonMap(key.substring(dot + 1), value);
        if (!into.containsKey(name)) {
            into.put(name, placed);
            return;
        }
        if (!(into.get(name) instanceof Map<?, ?> there) || !(placed instanceof Map<?, ?> more)) {
            throw new ConfigException(List.of(file + ": key " + prefix + key
                    + " is given more than once (expected: each key once, whether dotted or nested)"));
        }
        Map<String, Object> merged = new LinkedHashMap<>();
        String inner = prefix + name + ".";
        there.forEach((k, v) -> place(merged, inner, String.valueOf(k), v, file));
        more.forEach((k, v) -> place(merged, inner, String.valueOf(k), v, file));
        into.put(name, merged);
    }

    private static YamlNode node(String path, String name, Object value, String file, int depth) {
        if (depth > MAX_DEPTH) {
            throw new ConfigException(List.of(file + ": [nested deeper than " + MAX_DEPTH
                    + " levels] (expected: a configuration, not a self-referencing alias)"));
        }
        if (value instanceof Map<?, ?> map) {
            return object(path, name, map, file, depth);
        }
        if (value instanceof List<?> list) {
            List<YamlNode> items = new ArrayList<>(list.size());
            for (int i = 0; i < list.size(); i++) {
                items.add(node(path + "[" + i + "]", String.valueOf(i), list.get(i), file, depth + 1));
            }
            return new YamlNode(name, Type.LIST, null, Map.of(), List.copyOf(items));
        }
        return new YamlNode(name, Type.VALUE, value == null ? "" : value.toString(), Map.of(), List.of());
    }
}
