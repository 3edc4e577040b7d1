package io.insika.router.server.config;

import java.util.Map;
import java.util.Optional;

/**
 * The {@code INSIKA_ROUTER_*} variables that override YAML keys, read from a map handed in (Main
 * passes {@link System#getenv()}; tests pass their own), so nothing depends on the process.
 *
 * <p>A variable set to a blank value counts as unset: deployment templates often render an
 * optional variable as empty.
 */
public final class EnvironmentOverrides {

    /** The YAML file's path; {@code --config} on the command line beats it. */
    public static final String CONFIG = "INSIKA_ROUTER_CONFIG";
    /** Comma-separated backend URLs: static mode. Replaces YAML {@code backends} entirely. */
    public static final String BACKENDS = "INSIKA_ROUTER_BACKENDS";
    /** A DNS name to re-resolve: DNS mode. Replaces a YAML {@code backends.static}. */
    public static final String BACKENDS_DNS = "INSIKA_ROUTER_BACKENDS_DNS";
    /** {@code backends.dns.port}. */
    public static final String BACKEND_PORT = "INSIKA_ROUTER_BACKEND_PORT";
    /** {@code backends.dns.interval}, in seconds. */
    public static final String DNS_INTERVAL = "INSIKA_ROUTER_DNS_INTERVAL";
    /** {@code proxy.body-max-bytes}. */
    public static final String BODY_MAX_BYTES = "INSIKA_ROUTER_BODY_MAX_BYTES";
    /** {@code proxy.backend-timeout}, in seconds. */
    public static final String BACKEND_TIMEOUT = "INSIKA_ROUTER_BACKEND_TIMEOUT";
    /** {@code proxy.client-body-timeout}, in seconds. */
    public static final String CLIENT_BODY_TIMEOUT = "INSIKA_ROUTER_CLIENT_BODY_TIMEOUT";
    /** {@code proxy.client-send-timeout}, in seconds. */
    public static final String CLIENT_SEND_TIMEOUT = "INSIKA_ROUTER_CLIENT_SEND_TIMEOUT";
    /** {@code proxy.trusted-proxies}, comma-separated CIDR blocks. */
    public static final String TRUSTED_PROXIES = "INSIKA_ROUTER_TRUSTED_PROXIES";
    /** {@code proxy.max-requests}. */
    public static final String MAX_REQUESTS = "INSIKA_ROUTER_MAX_REQUESTS";
    /** {@code proxy.peek-budget}, in bytes. */
    public static final String PEEK_BUDGET = "INSIKA_ROUTER_PEEK_BUDGET";
    /** {@code server.max-connections}. */
    public static final String MAX_CONNECTIONS = "INSIKA_ROUTER_MAX_CONNECTIONS";
    /** {@code backends.max-requests}: each backend's request slots unless its entry says otherwise. */
    public static final String BACKEND_MAX_REQUESTS = "INSIKA_ROUTER_BACKEND_MAX_REQUESTS";
    /** {@code backends.max-tunnels}: each backend's tunnel slots unless its entry says otherwise. */
    public static final String BACKEND_MAX_TUNNELS = "INSIKA_ROUTER_BACKEND_MAX_TUNNELS";
    /** {@code health.down-time}, in seconds. */
    public static final String HEALTH_DOWN_TIME = "INSIKA_ROUTER_HEALTH_DOWN_TIME";
    /** {@code health.path}: turns active checks on. */
    public static final String HEALTH_PATH = "INSIKA_ROUTER_HEALTH_PATH";
    /** {@code health.interval}, in seconds. */
    public static final String HEALTH_INTERVAL = "INSIKA_ROUTER_HEALTH_INTERVAL";
    /** {@code health.timeout}, in seconds. */
    public static final String HEALTH_TIMEOUT = "INSIKA_ROUTER_HEALTH_TIMEOUT";
    /** {@code proxy.access-log}. */
    public static final String ACCESS_LOG = "INSIKA_ROUTER_ACCESS_LOG";
    /** {@code logging.format}. */
    public static final String LOG_FORMAT = "INSIKA_ROUTER_LOG_FORMAT";
    /** {@code server.stop-delay}, in seconds. */
    public static final String STOP_DELAY = "INSIKA_ROUTER_STOP_DELAY";
    /** {@code server.host}. */
    public static final String HOST = "INSIKA_ROUTER_HOST";
    /** {@code server.port}. */
    public static final String PORT = "INSIKA_ROUTER_PORT";
    /** {@code sessions.secret-file}: the secret that seals the session ids backends mint. */
    public static final String SESSION_SECRET_FILE = "INSIKA_ROUTER_SESSION_SECRET_FILE";
    /** {@code strategy.name}. */
    public static final String STRATEGY = "INSIKA_ROUTER_STRATEGY";

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
     * A variable's value, trimmed.
     *
     * @param name one of the constants of this class
     * @return the value, or empty if unset or blank
     */
    public Optional<String> get(String name) {
        return Optional.ofNullable(environment.get(name)).map(String::trim).filter(v -> !v.isEmpty());
    }

    public boolean isSet(String name) {
        return get(name).isPresent();
    }
}
