package io.insika.router.server.config;

import java.io.FileDescriptor;
import java.io.FileOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;

import io.insika.router.api.PluginOptions;
import io.insika.router.server.ServerSettings;
import io.insika.router.server.backends.BackendCapacity;
import io.insika.router.server.backends.HealthSettings;
import io.insika.router.server.logging.LogFormat;
import io.insika.router.server.logging.LogLevel;
import io.insika.router.server.plugin.PluginRegistry;
import io.insika.router.server.proxy.AccessLogTarget;
import io.insika.router.server.proxy.Http2Settings;
import io.insika.router.server.proxy.ProxySettings;
import io.insika.router.server.proxy.TrustedProxies;
import io.insika.router.server.routing.RouteSpec;
import io.insika.router.server.routing.StrategySettings;
import io.insika.router.server.session.SessionSeal;
import io.insika.router.server.tls.TlsSettings;

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
        FileRead read = read(file, commandLineFile.isPresent() ? "--config" : EnvironmentOverrides.CONFIG);
        YamlNode root = read.root();
        SettingReader reader = new SettingReader(root, overrides, file.isPresent() ? ValueSource.YAML : ValueSource.DEFAULT);
        KnownKeys.check(root, reader.problems());
        UnknownVariables.check(overrides, reader.problems());

        String host = reader.read(Settings.HOST);
        int port = reader.read(Settings.PORT);
        String adminHost = reader.read(Settings.ADMIN_HOST);
        int adminPort = reader.read(Settings.ADMIN_PORT);
        Duration grace = reader.read(Settings.SHUTDOWN_GRACE);
        Duration stopDelay = reader.read(Settings.STOP_DELAY);
        int maxConnections = reader.read(Settings.MAX_CONNECTIONS);
        Duration headTimeout = reader.read(Settings.HEAD_TIMEOUT);
        Duration idleTimeout = reader.read(Settings.IDLE_TIMEOUT);
        boolean leanHttp1 = reader.read(Settings.LEAN_HTTP1);
        Http2Settings http2 = new Http2Settings(reader.read(Settings.HTTP2),
                reader.read(Settings.HTTP2_MAX_CONCURRENT_STREAMS), reader.read(Settings.HTTP2_MAX_HEADER_LIST_SIZE),
                reader.read(Settings.HTTP2_INITIAL_WINDOW_SIZE));
        Optional<TlsSettings> tls = TlsReader.read(reader);
        if (port == adminPort && port != 0) {
            reader.problem(Settings.ADMIN_PORT.key(), String.valueOf(adminPort),
                    "a port other than the proxy's port " + port + ", so observe endpoints are never proxied");
        }
        int beforeStrategy = reader.problems().size();
        String strategy = reader.read(Settings.STRATEGY);
        boolean strategyNamed = reader.problems().size() == beforeStrategy;
        PluginOptions strategyOptions = strategyOptions(reader, strategy);
        boolean strategyChangeOnReload = reader.read(Settings.STRATEGY_CHANGE_ON_RELOAD);
        BackendsReader backendsReader = new BackendsReader(reader);
        BackendSource backends = backendsReader.read();
        BackendCapacity capacity = backendsReader.capacity();
        HealthSettings health = health(reader);
        int bodyMaxBytes = reader.read(Settings.BODY_MAX_BYTES);
        Duration backendTimeout = reader.read(Settings.BACKEND_TIMEOUT);
        Duration clientBodyTimeout = reader.read(Settings.CLIENT_BODY_TIMEOUT);
        Duration clientSendTimeout = reader.read(Settings.CLIENT_SEND_TIMEOUT);
        long clientBodyMinRate = reader.read(Settings.CLIENT_BODY_MIN_RATE);
        Duration streamIdleTimeout = reader.read(Settings.STREAM_IDLE_TIMEOUT);
        TrustedProxies trustedProxies = reader.read(Settings.TRUSTED_PROXIES);
        int maxRequests = reader.read(Settings.MAX_REQUESTS);
        int maxTunnels = reader.read(Settings.MAX_TUNNELS);
        int peekBudget = reader.read(Settings.PEEK_BUDGET);
        boolean accessLog = reader.read(Settings.ACCESS_LOG);
        LogFormat logFormat = reader.read(Settings.LOG_FORMAT);
        LogLevel logLevel = reader.read(Settings.LOG_LEVEL);
        Duration reloadWatch = reader.read(Settings.RELOAD_WATCH_INTERVAL);
        RoutesReader routesReader = new RoutesReader(reader);
        List<RouteSpec> routes = routesReader.read();
        SessionSeal sessions = SessionsReader.read(reader, routes);

        PluginCheck plugins = new PluginCheck(registry, reader);
        if (strategyNamed) {
            strategyOptions = plugins.strategy(reader.label(Settings.STRATEGY), strategy, strategyOptions);
        }
        plugins.routes(routesReader.extractors(), routes, routesReader.whole());
        if (!reader.problems().isEmpty()) {
            throw new ConfigException(reader.problems());
        }
        // standard output, straight to the descriptor: System.out's PrintStream locks and flushes per call
        Optional<AccessLogTarget> accessLogTarget = accessLog
                ? Optional.of(new AccessLogTarget(new FileOutputStream(FileDescriptor.out), logFormat))
                : Optional.empty();
        return new RouterConfig(
                new ServerSettings(host, port, adminHost.isEmpty() ? host : adminHost, adminPort, grace, stopDelay,
                        maxConnections, leanHttp1, headTimeout, idleTimeout, tls, http2),
                new StrategySettings(strategy, strategyOptions, strategyChangeOnReload),
                backends,
                new ProxySettings(bodyMaxBytes, backendTimeout, clientBodyTimeout, clientSendTimeout, accessLogTarget,
                        trustedProxies, maxRequests, peekBudget, capacity, health, sessions, streamIdleTimeout,
                        maxTunnels, clientBodyMinRate),
                routes, logFormat, logLevel, reloadWatch,
                new ConfigOrigins(file.map(Path::toString), reader.origins(), read.sha256()));
    }

    /** {@code health}: the passive down time, and active checks when a path is given. */
    private static HealthSettings health(SettingReader reader) {
        Duration downTime = reader.read(Settings.HEALTH_DOWN_TIME);
        String path = reader.read(Settings.HEALTH_PATH);
        Duration interval = reader.read(Settings.HEALTH_INTERVAL);
        Duration timeout = reader.read(Settings.HEALTH_TIMEOUT);
        if (timeout.compareTo(interval) > 0) {
            if (reader.origins().get(Settings.HEALTH_TIMEOUT.key()) != ValueSource.DEFAULT) {
                reader.problem(reader.label(Settings.HEALTH_TIMEOUT), DurationText.format(timeout),
                        "at most health.interval (" + DurationText.format(interval) + "): one check must end before the next");
            }
            timeout = interval; // the default timeout shrinks to fit a short interval
        }
        return new HealthSettings(downTime, path.isEmpty() ? Optional.empty() : Optional.of(path), interval, timeout);
    }

    /** Options written for the YAML's strategy; none when the environment switched to another. */
    private static PluginOptions strategyOptions(SettingReader reader, String effectiveName) {
        String key = Settings.STRATEGY_OPTIONS.key();
        YamlNode options = reader.root().get(key);
        String yamlName = reader.root().get(Settings.STRATEGY.key()).asString().orElse(Settings.STRATEGY.fallback()).trim();
        if (!options.exists() || !yamlName.equals(effectiveName)) {
            reader.origin(key, ValueSource.DEFAULT);
            return PluginOptions.of(key, Map.of());
        }
        reader.origin(key, reader.fileSource());
        if (options.type() != YamlNode.Type.OBJECT) {
            reader.problem(key, SettingReader.describe(options), "a mapping of option names to values");
            return PluginOptions.of(key, Map.of());
        }
        return PluginOptions.of(key, RoutesReader.options(options, ""));
    }

    /** The tree read, and the SHA-256 of the file's bytes (empty for the embedded default). */
    private record FileRead(YamlNode root, Optional<String> sha256) {
    }

    private static FileRead read(Optional<Path> file, String givenBy) {
        if (file.isEmpty()) {
            return new FileRead(YamlNode.parse(embeddedDefault(), EMBEDDED_DEFAULT), Optional.empty());
        }
        if (!Files.isRegularFile(file.get()) || !Files.isReadable(file.get())) {
            throw new ConfigException(List.of(givenBy + ": [" + file.get() + "] (expected: a readable YAML file)"));
        }
        byte[] bytes;
        try {
            bytes = Files.readAllBytes(file.get());
        } catch (IOException e) {
            throw new ConfigException(List.of(givenBy + ": [" + file.get() + "] cannot be read: " + e));
        }
        String text;
        try {
            // strict: a byte that is not UTF-8 is an error, never a replacement character
            text = StandardCharsets.UTF_8.newDecoder().decode(ByteBuffer.wrap(bytes)).toString();
        } catch (CharacterCodingException e) {
            throw new ConfigException(List.of(givenBy + ": [" + file.get() + "] (expected: YAML in UTF-8; found"
                    + " bytes that are not UTF-8)"));
        }
        return new FileRead(YamlNode.parse(text, file.get().toString()), Optional.of(ConfigDigest.of(bytes)));
    }

    private static String embeddedDefault() {
        try (InputStream in = RouterConfigLoader.class.getClassLoader().getResourceAsStream(EMBEDDED_DEFAULT)) {
            if (in == null) {
                throw new IllegalStateException(EMBEDDED_DEFAULT + " is missing from the router's jar");
            }
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read " + EMBEDDED_DEFAULT + " from the router's jar", e);
        }
    }
}
