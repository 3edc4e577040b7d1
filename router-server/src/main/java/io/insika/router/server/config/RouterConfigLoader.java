package io.insika.router.server.config;

import java.io.IOException;
import java.nio.charset.MalformedInputException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;

import io.helidon.common.media.type.MediaTypes;
import io.helidon.config.Config;
import io.helidon.config.ConfigSources;
import io.helidon.config.spi.ConfigSource;
import io.insika.router.api.PluginOptions;
import io.insika.router.server.ServerSettings;
import io.insika.router.server.backends.BackendCapacity;
import io.insika.router.server.backends.HealthSettings;
import io.insika.router.server.logging.LogFormat;
import io.insika.router.server.plugin.PluginRegistry;
import io.insika.router.server.proxy.ProxySettings;
import io.insika.router.server.proxy.TrustedProxies;
import io.insika.router.server.routing.RouteSpec;
import io.insika.router.server.session.SessionSeal;

import static io.insika.router.server.config.EnvironmentOverrides.ACCESS_LOG;
import static io.insika.router.server.config.EnvironmentOverrides.BACKEND_TIMEOUT;
import static io.insika.router.server.config.EnvironmentOverrides.BODY_MAX_BYTES;
import static io.insika.router.server.config.EnvironmentOverrides.CLIENT_BODY_TIMEOUT;
import static io.insika.router.server.config.EnvironmentOverrides.CLIENT_SEND_TIMEOUT;
import static io.insika.router.server.config.EnvironmentOverrides.HEALTH_DOWN_TIME;
import static io.insika.router.server.config.EnvironmentOverrides.LOG_FORMAT;
import static io.insika.router.server.config.EnvironmentOverrides.HEALTH_INTERVAL;
import static io.insika.router.server.config.EnvironmentOverrides.HEALTH_PATH;
import static io.insika.router.server.config.EnvironmentOverrides.HEALTH_TIMEOUT;
import static io.insika.router.server.config.EnvironmentOverrides.MAX_CONNECTIONS;
import static io.insika.router.server.config.EnvironmentOverrides.MAX_REQUESTS;
import static io.insika.router.server.config.EnvironmentOverrides.PEEK_BUDGET;
import static io.insika.router.server.config.EnvironmentOverrides.TRUSTED_PROXIES;
import static io.insika.router.server.config.EnvironmentOverrides.HOST;
import static io.insika.router.server.config.EnvironmentOverrides.PORT;
import static io.insika.router.server.config.EnvironmentOverrides.STOP_DELAY;
import static io.insika.router.server.config.EnvironmentOverrides.STRATEGY;

/**
 * Builds the one {@link RouterConfig} at start-up: the YAML file ({@code --config}, else
 * {@code INSIKA_ROUTER_CONFIG}, else the embedded default), overridden by the environment,
 * checked completely, plugins included. Nothing else reads configuration.
 */
public final class RouterConfigLoader {

    /** The classpath resource read when no file is named: the built-in defaults, no backends. */
    public static final String EMBEDDED_DEFAULT = "insika-router-default.yaml";

    private final PluginRegistry registry;

    /**
     * @param registry the strategies and extractors a configuration may name
     */
    public RouterConfigLoader(PluginRegistry registry) {
        this.registry = registry;
    }

    /**
     * Loads and validates the configuration.
     *
     * @param commandLineFile the file given as {@code --config}, if any; beats
     *                        {@code INSIKA_ROUTER_CONFIG}
     * @param environment     the process environment ({@link System#getenv()})
     * @return the validated configuration
     * @throws ConfigException listing every problem found, one line each
     */
    public RouterConfig load(Optional<Path> commandLineFile, Map<String, String> environment) {
        EnvironmentOverrides overrides = EnvironmentOverrides.of(environment);
        Optional<Path> file = commandLineFile.or(() -> overrides.get(EnvironmentOverrides.CONFIG).map(Path::of));
        Config root = read(file, commandLineFile.isPresent() ? "--config" : EnvironmentOverrides.CONFIG);
        SettingReader reader = new SettingReader(root, overrides, file.isPresent() ? ValueSource.YAML : ValueSource.DEFAULT);
        KnownKeys.check(root, reader.problems());

        String host = reader.read("server.host", HOST, RouterConfig.DEFAULT_HOST, ValueType.host());
        int port = reader.read("server.port", PORT, RouterConfig.DEFAULT_PORT, ValueType.listenPort());
        int adminPort = reader.read("server.admin-port", null, RouterConfig.DEFAULT_ADMIN_PORT, ValueType.listenPort());
        Duration grace = reader.read("server.shutdown-grace", null, RouterConfig.DEFAULT_SHUTDOWN_GRACE,
                ValueType.durationOrZero());
        Duration stopDelay = reader.read("server.stop-delay", STOP_DELAY, Duration.ZERO, ValueType.durationOrZero());
        int maxConnections = reader.read("server.max-connections", MAX_CONNECTIONS, ServerSettings.DEFAULT_MAX_CONNECTIONS,
                ValueType.integer(1, 1_000_000, "a whole number from 1 to 1000000"));
        if (port == adminPort && port != 0) {
            reader.problem("server.admin-port", String.valueOf(adminPort),
                    "a port other than the proxy's port " + port + ", so observe endpoints are never proxied");
        }
        String strategy = reader.read("strategy.name", STRATEGY, RouterConfig.DEFAULT_STRATEGY, ValueType.word());
        PluginOptions strategyOptions = strategyOptions(reader, strategy);
        boolean strategyChangeOnReload = reader.read("strategy.allow-change-on-reload", null, false, ValueType.bool());
        BackendsReader backendsReader = new BackendsReader(reader);
        BackendSource backends = backendsReader.read();
        BackendCapacity capacity = backendsReader.capacity();
        HealthSettings health = health(reader);
        int bodyMaxBytes = reader.read("proxy.body-max-bytes", BODY_MAX_BYTES, RouterConfig.DEFAULT_BODY_MAX_BYTES,
                ValueType.positiveSize());
        Duration backendTimeout = reader.read("proxy.backend-timeout", BACKEND_TIMEOUT,
                RouterConfig.DEFAULT_BACKEND_TIMEOUT, ValueType.positiveDuration());
        Duration clientBodyTimeout = reader.read("proxy.client-body-timeout", CLIENT_BODY_TIMEOUT,
                RouterConfig.DEFAULT_CLIENT_BODY_TIMEOUT, ValueType.positiveDuration());
        Duration clientSendTimeout = reader.read("proxy.client-send-timeout", CLIENT_SEND_TIMEOUT,
                RouterConfig.DEFAULT_CLIENT_SEND_TIMEOUT, ValueType.positiveDuration());
        TrustedProxies trustedProxies = reader.read("proxy.trusted-proxies", TRUSTED_PROXIES, TrustedProxies.NONE,
                ValueType.trustedProxies());
        int maxRequests = reader.read("proxy.max-requests", MAX_REQUESTS, ProxySettings.DEFAULT_MAX_REQUESTS,
                ValueType.integer(1, 1_000_000, "a whole number from 1 to 1000000"));
        int peekBudget = reader.read("proxy.peek-budget", PEEK_BUDGET, ProxySettings.DEFAULT_PEEK_BUDGET,
                ValueType.integer(0, Integer.MAX_VALUE, "a whole number of bytes from 0 to 2147483647"));
        boolean accessLog = reader.read("proxy.access-log", ACCESS_LOG, false, ValueType.bool());
        LogFormat logFormat = reader.read("logging.format", LOG_FORMAT, LogFormat.TEXT, ValueType.logFormat());
        List<RouteSpec> routes = new RoutesReader(reader).read();
        SessionSeal sessions = SessionsReader.read(reader, routes);

        if (reader.problems().isEmpty()) {
            PluginCheck plugins = new PluginCheck(registry, reader);
            String strategyLabel = reader.origins().get("strategy.name") == ValueSource.ENVIRONMENT
                    ? STRATEGY : "strategy.name";
            plugins.strategy(strategyLabel, strategy, strategyOptions);
            plugins.routes(routes);
        }
        if (!reader.problems().isEmpty()) {
            throw new ConfigException(reader.problems());
        }
        return new RouterConfig(host, port, adminPort, grace, stopDelay, maxConnections, strategy, strategyOptions,
                backends, capacity, health, bodyMaxBytes, backendTimeout, clientBodyTimeout, clientSendTimeout,
                trustedProxies, maxRequests, peekBudget, accessLog, logFormat, routes,
                new ConfigOrigins(file.map(Path::toString), reader.origins()), strategyChangeOnReload, sessions);
    }

    /** {@code health}: the passive down time, and active checks when a path is given. */
    private static HealthSettings health(SettingReader reader) {
        Duration downTime = reader.read("health.down-time", HEALTH_DOWN_TIME, HealthSettings.DEFAULT_DOWN_TIME,
                ValueType.positiveDuration());
        String path = reader.read("health.path", HEALTH_PATH, "", ValueType.healthPath());
        Duration interval = reader.read("health.interval", HEALTH_INTERVAL, HealthSettings.DEFAULT_INTERVAL,
                ValueType.positiveDuration());
        Duration timeout = reader.read("health.timeout", HEALTH_TIMEOUT, HealthSettings.DEFAULT_TIMEOUT,
                ValueType.positiveDuration());
        ValueSource timeoutSource = reader.origins().get("health.timeout");
        if (timeout.compareTo(interval) > 0) {
            if (timeoutSource != ValueSource.DEFAULT) {
                reader.problem(timeoutSource == ValueSource.ENVIRONMENT ? HEALTH_TIMEOUT : "health.timeout",
                        DurationText.format(timeout), "at most health.interval (" + DurationText.format(interval)
                                + "): one check must end before the next");
            }
            timeout = interval; // the default timeout shrinks to fit a short interval
        }
        return new HealthSettings(downTime, path.isEmpty() ? Optional.empty() : Optional.of(path), interval, timeout);
    }

    /** Options written for the YAML's strategy; none when the environment switched to another. */
    private static PluginOptions strategyOptions(SettingReader reader, String effectiveName) {
        Config options = reader.root().get("strategy.options");
        String yamlName = reader.root().get("strategy.name").asString().orElse(RouterConfig.DEFAULT_STRATEGY).trim();
        if (!options.exists() || !yamlName.equals(effectiveName)) {
            reader.origin("strategy.options", ValueSource.DEFAULT);
            return PluginOptions.of("strategy.options", Map.of());
        }
        reader.origin("strategy.options", reader.fileSource());
        if (options.type() != Config.Type.OBJECT) {
            reader.problem("strategy.options", SettingReader.describe(options), "a mapping of option names to values");
            return PluginOptions.of("strategy.options", Map.of());
        }
        return PluginOptions.of("strategy.options", RoutesReader.options(options, ""));
    }

    private static Config read(Optional<Path> file, String givenBy) {
        ConfigSource source;
        if (file.isPresent()) {
            if (!Files.isRegularFile(file.get()) || !Files.isReadable(file.get())) {
                throw new ConfigException(List.of(givenBy + ": [" + file.get() + "] (expected: a readable YAML file)"));
            }
            // Read here and named YAML, not ConfigSources.file: that guesses the media type from the
            // file name through Helidon's detectors, 30 ms of start-up to learn what the docs say.
            try {
                source = ConfigSources.create(Files.readString(file.get()), MediaTypes.APPLICATION_X_YAML);
            } catch (MalformedInputException e) {
                throw new ConfigException(List.of(givenBy + ": [" + file.get() + "] (expected: YAML in UTF-8; found"
                        + " bytes that are not UTF-8)"));
            } catch (IOException e) {
                throw new ConfigException(List.of(givenBy + ": [" + file.get() + "] cannot be read: " + e));
            }
        } else {
            source = ConfigSources.classpath(EMBEDDED_DEFAULT).build();
        }
        try {
            // only the file: Helidon's own environment and system-property mapping would bypass ours
            return Config.builder()
                    .sources(() -> source)
                    .disableEnvironmentVariablesSource()
                    .disableSystemPropertiesSource()
                    .disableValueResolving()
                    .disableKeyResolving()
                    .disableCaching()
                    .build();
        } catch (RuntimeException e) {
            throw new ConfigException(List.of(YamlSyntax.describe(file.map(Path::toString).orElse(EMBEDDED_DEFAULT), e)));
        }
    }
}
