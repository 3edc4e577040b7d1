package io.insika.router.server.config;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;


/**
 * Reads one configuration value at a time with the house precedence (environment, then YAML,
 * then default), records where it came from, and collects problems instead of stopping at the
 * first, so an operator sees every mistake in one run.
 */
final class SettingReader {

    private final YamlNode root;
    private final EnvironmentOverrides environment;
    private final ValueSource fileSource;
    private final List<String> problems = new ArrayList<>();
    private final Map<String, ValueSource> origins = new LinkedHashMap<>();

    /**
     * @param root        the YAML tree
     * @param environment the overrides
     * @param fileSource  what a value read from the tree counts as: {@link ValueSource#YAML} for
     *                    the operator's file, {@link ValueSource#DEFAULT} for the embedded one
     */
    SettingReader(YamlNode root, EnvironmentOverrides environment, ValueSource fileSource) {
        this.root = root;
        this.environment = environment;
        this.fileSource = fileSource;
    }

    /**
     * A value from the setting's environment variable if set, else its YAML key, else its default.
     *
     * @param setting the key's row of {@link Settings}
     * @return the effective value; the default (after recording a problem) when invalid
     */
    <T> T read(Setting<T> setting) {
        String key = setting.key();
        Optional<String> fromEnvironment = environment.get(setting);
        if (fromEnvironment.isPresent()) {
            origins.put(key, ValueSource.ENVIRONMENT);
            return parse(setting.variable().orElseThrow(), fromEnvironment.get(), setting.fallback(), setting.type());
        }
        Optional<String> fromFile = scalar(key, key);
        if (fromFile.isPresent()) {
            origins.put(key, fileSource);
            return parse(key, fromFile.get(), setting.fallback(), setting.type());
        }
        origins.put(key, ValueSource.DEFAULT);
        return setting.fallback();
    }

    /** How a problem with a value already read names it: by its variable when the environment set it. */
    String label(ConfigKey key) {
        return origins.get(key.key()) == ValueSource.ENVIRONMENT ? key.variable().orElseThrow() : key.key();
    }

    /** Reads a value found by the caller, such as one list entry, reporting it under {@code label}. */
    <T> Optional<T> parse(String label, String text, ValueType<T> type) {
        Optional<T> value = type.parse(text);
        if (value.isEmpty()) {
            problem(label, text, type.expected());
        }
        return value;
    }

    private <T> T parse(String label, String text, T fallback, ValueType<T> type) {
        return parse(label, text, type).orElse(fallback);
    }

    /**
     * The text of a YAML scalar; a list or mapping where a scalar belongs is a problem.
     *
     * @param key   the dotted key, relative to the root
     * @param label how to name it in a message, such as {@code routes[0].path}
     * @return the text, or empty if absent or not a scalar
     */
    Optional<String> scalar(String key, String label) {
        return scalar(root.get(key), label);
    }

    Optional<String> scalar(YamlNode node, String label) {
        if (!node.exists()) {
            return Optional.empty();
        }
        if (node.type() != YamlNode.Type.VALUE) {
            problem(label, describe(node), "a single value");
            return Optional.empty();
        }
        return Optional.of(node.asString().orElse(""));
    }

    /** Adds a problem in the house form: {@code label: [value] (expected: ...)}. */
    void problem(String label, String value, String expected) {
        problems.add(label + ": [" + value + "] (expected: " + expected + ")");
    }

    /** Adds a problem already in the house form. */
    void problem(String line) {
        problems.add(line);
    }

    void origin(String key, ValueSource source) {
        origins.put(key, source);
    }

    YamlNode root() {
        return root;
    }

    EnvironmentOverrides environment() {
        return environment;
    }

    ValueSource fileSource() {
        return fileSource;
    }

    List<String> problems() {
        return problems;
    }

    Map<String, ValueSource> origins() {
        return origins;
    }

    static String describe(YamlNode node) {
        return switch (node.type()) {
            case LIST -> "a list";
            case OBJECT -> "a mapping";
            default -> node.asString().orElse("");
        };
    }
}
