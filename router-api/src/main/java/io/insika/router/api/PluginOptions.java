package io.insika.router.api;

import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * The options an operator wrote in YAML under one strategy or key extractor, as text.
 *
 * <p>Each option is a flat {@code name: value} pair; nested YAML appears with dotted names. The
 * options know where they came from ({@link #path()}, such as {@code routes[1].keys[0]}) so that
 * every error message names the option the operator has to fix. Instances are immutable.
 */
public final class PluginOptions {

    private static final PluginOptions EMPTY = new PluginOptions("", Map.of());

    private final String path;
    private final Map<String, String> values;

    private PluginOptions(String path, Map<String, String> values) {
        this.path = path;
        this.values = values;
    }

    /**
     * Options read from the configuration.
     *
     * @param path   where in the configuration they were written, for error messages; may be
     *               empty
     * @param values the options by name
     * @return the options
     */
    public static PluginOptions of(String path, Map<String, String> values) {
        Objects.requireNonNull(path, "path");
        return new PluginOptions(path, Map.copyOf(values));
    }

    /**
     * Options from name-value pairs, handy in tests: {@code PluginOptions.of("field", "user")}.
     *
     * @param namesAndValues alternating names and values
     * @return the options, with an empty path
     */
    public static PluginOptions of(String... namesAndValues) {
        if (namesAndValues.length % 2 != 0) {
            throw new IllegalArgumentException("namesAndValues: expected pairs, got " + namesAndValues.length);
        }
        Map<String, String> map = new TreeMap<>();
        for (int i = 0; i < namesAndValues.length; i += 2) {
            map.put(namesAndValues[i], namesAndValues[i + 1]);
        }
        return new PluginOptions("", Map.copyOf(map));
    }

    /**
     * No options.
     *
     * @return the empty options
     */
    public static PluginOptions empty() {
        return EMPTY;
    }

    /**
     * Where these options were written, such as {@code strategy} or {@code routes[1].keys[0]}.
     *
     * @return the path, possibly empty
     */
    public String path() {
        return path;
    }

    /**
     * The names of all options given.
     *
     * @return the names, sorted
     */
    public Set<String> names() {
        return new TreeSet<>(values.keySet());
    }

    /**
     * An option's value.
     *
     * @param name the option's name
     * @return its value, or empty if it was not given
     */
    public Optional<String> get(String name) {
        return Optional.ofNullable(values.get(name));
    }

    /**
     * An option that must be given and not blank.
     *
     * @param name     the option's name
     * @param expected what a valid value is, for the message
     * @return its value
     * @throws PluginConfigException if it is missing or blank
     */
    public String required(String name, String expected) {
        String value = values.get(name);
        if (value == null || value.isBlank()) {
            throw invalid(name, value == null ? "" : value, expected);
        }
        return value;
    }

    /**
     * An integer option within bounds.
     *
     * @param name         the option's name
     * @param defaultValue the value when it was not given
     * @param min          the smallest valid value
     * @param max          the largest valid value
     * @return the value
     * @throws PluginConfigException if it is not an integer within {@code [min, max]}
     */
    public int intValue(String name, int defaultValue, int min, int max) {
        String value = values.get(name);
        if (value == null) {
            return defaultValue;
        }
        String expected = "an integer from " + min + " to " + max;
        try {
            int parsed = Integer.parseInt(value.trim());
            if (parsed < min || parsed > max) {
                throw invalid(name, value, expected);
            }
            return parsed;
        } catch (NumberFormatException e) {
            throw invalid(name, value, expected);
        }
    }

    /**
     * One of a fixed set of words.
     *
     * @param name         the option's name
     * @param defaultValue the value when it was not given
     * @param allowed      the valid values
     * @return the value
     * @throws PluginConfigException if it is not one of {@code allowed}
     */
    public String oneOf(String name, String defaultValue, Set<String> allowed) {
        String value = values.get(name);
        if (value == null) {
            return defaultValue;
        }
        if (!allowed.contains(value)) {
            throw invalid(name, value, "one of " + String.join(", ", new TreeSet<>(allowed)));
        }
        return value;
    }

    /**
     * Rejects options nobody asked for, so a typo stops the start instead of being ignored.
     *
     * @param known the options the plugin understands
     * @throws PluginConfigException naming the first unknown option and listing the known ones
     */
    public void requireOnly(Set<String> known) {
        for (String name : new TreeSet<>(values.keySet())) {
            if (!known.contains(name)) {
                String expected = known.isEmpty()
                        ? "no options"
                        : "known options: " + String.join(", ", new TreeSet<>(known));
                throw new PluginConfigException(qualified(name) + ": unknown option (" + expected + ")");
            }
        }
    }

    /**
     * An error in the house form: {@code path.name: [value] (expected: what is valid)}.
     *
     * @param name     the option's name
     * @param value    the value given
     * @param expected what would be valid
     * @return the exception, for the caller to throw
     */
    public PluginConfigException invalid(String name, Object value, String expected) {
        return new PluginConfigException(qualified(name) + ": [" + value + "] (expected: " + expected + ")");
    }

    private String qualified(String name) {
        return path.isEmpty() ? name : path + "." + name;
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof PluginOptions other && path.equals(other.path) && values.equals(other.values);
    }

    @Override
    public int hashCode() {
        return Objects.hash(path, values);
    }

    @Override
    public String toString() {
        return (path.isEmpty() ? "" : path + " ") + new TreeMap<>(values);
    }
}
