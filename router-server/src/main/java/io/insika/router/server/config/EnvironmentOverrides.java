package io.insika.router.server.config;

import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * The {@code INSIKA_ROUTER_*} variables that override YAML keys, read from a map handed in (Main
 * passes {@link System#getenv()}; tests pass their own), so nothing depends on the process. Each
 * key's variable is named in its row of {@link Settings}.
 *
 * <p>A variable set to a blank value counts as unset: deployment templates often render an
 * optional variable as empty.
 */
public final class EnvironmentOverrides {

    /** The YAML file's path; {@code --config} on the command line beats it. */
    public static final String CONFIG = "INSIKA_ROUTER_CONFIG";

    /** The HMAC secret of {@code insika-router token --hmac} when no {@code --secret-file} is given. */
    public static final String TOKEN_SECRET = "INSIKA_ROUTER_TOKEN_SECRET";

    /**
     * Read by {@code bin/insika-router} itself, never by the router, yet set in its environment:
     * the JVM's options, the heap, and the home the script sets (and exports, when the caller had).
     */
    static final Set<String> LAUNCHER = Set.of("INSIKA_ROUTER_JAVA_OPTS", "INSIKA_ROUTER_HEAP_OPTS",
            "INSIKA_ROUTER_HOME");

    private final Map<String, String> environment;

    private EnvironmentOverrides(Map<String, String> environment) {
        this.environment = Map.copyOf(environment);
    }

    /**
     * @param environment variable names to values, such as {@link System#getenv()}
     * @return the overrides
     */
    public static EnvironmentOverrides of(Map<String, String> environment) {
        return new EnvironmentOverrides(environment);
    }

    /**
     * The value of a key's variable, trimmed.
     *
     * @param key a row of {@link Settings}
     * @return the value, or empty if the key has no variable, or it is unset or blank
     */
    public Optional<String> get(ConfigKey key) {
        return key.variable().flatMap(this::get);
    }

    public boolean isSet(ConfigKey key) {
        return get(key).isPresent();
    }

    /**
     * A variable's value, trimmed.
     *
     * @param name a variable's name, such as {@link #CONFIG}
     * @return the value, or empty if unset or blank
     */
    public Optional<String> get(String name) {
        return Optional.ofNullable(environment.get(name)).map(String::trim).filter(v -> !v.isEmpty());
    }

    public boolean isSet(String name) {
        return get(name).isPresent();
    }

    /** @return the names of the variables set and not blank, as {@link #get(String)} sees them */
    Set<String> names() {
        return environment.keySet().stream().filter(this::isSet).collect(java.util.stream.Collectors.toSet());
    }
}
