package io.insika.router.server;

import java.lang.System.Logger.Level;
import java.util.List;
import java.util.concurrent.atomic.AtomicReference;
import java.util.stream.Collectors;

import io.insika.router.api.PluginOptions;
import io.insika.router.api.RouteStrategy;
import io.insika.router.server.config.ConfigChanges;
import io.insika.router.server.config.ConfigKey;
import io.insika.router.server.config.DnsBackends;
import io.insika.router.server.config.DurationText;
import io.insika.router.server.config.RouterConfig;
import io.insika.router.server.config.Settings;
import io.insika.router.server.config.StaticBackends;
import io.insika.router.server.discovery.BackendDiscovery;
import io.insika.router.server.discovery.DnsBackendDiscovery;
import io.insika.router.server.discovery.StaticBackendDiscovery;
import io.insika.router.server.metrics.RouterMetrics;
import io.insika.router.server.plugin.PluginRegistry;
import io.insika.router.server.routing.BackendPool;
import io.insika.router.server.routing.RouteSpec;
import io.insika.router.server.routing.RouteTable;
import io.insika.router.server.tls.TlsMaterial;
import io.insika.router.server.tls.TlsSettings;

/**
 * The whole router, assembled from a validated configuration: discovery keeping the pool
 * current, and the server in front of it. Closing it is the graceful stop.
 */
public final class Router implements AutoCloseable {

    private static final System.Logger LOG = System.getLogger(Router.class.getName());
    // a change of any is a new pair (or new client CAs) for the running listeners
    private static final List<ConfigKey> TLS_FILES = List.of(Settings.TLS_CERTIFICATE, Settings.TLS_PRIVATE_KEY,
            Settings.TLS_CLIENT_CA);

    private final RouterServer server;
    private final BackendDiscovery discovery;
    private final BackendPool pool;
    private final PluginRegistry registry;
    // the configuration it runs with: the one it started with, or the last reload applied
    private final AtomicReference<RouterConfig> config;

    private Router(RouterServer server, BackendDiscovery discovery, BackendPool pool, PluginRegistry registry,
                   AtomicReference<RouterConfig> config) {
        this.server = server;
        this.discovery = discovery;
        this.pool = pool;
        this.registry = registry;
        this.config = config;
    }

    /** {@link #start(RouterConfig, PluginRegistry, Runnable)} with nothing to wait for before the web server. */
    public static Router start(RouterConfig config, PluginRegistry registry) {
        return start(config, registry, () -> { });
    }

    /**
     * Fills the pool (the first DNS answer included), then listens.
     *
     * @param config          the validated configuration
     * @param registry        the strategies and extractors it names
     * @param beforeWebServer run once the pool is filled, right before the first use of Helidon:
     *                        {@code serve} waits there for Helidon's registry being created on
     *                        another thread, so everything up to it overlaps that thread
     * @return the running router
     */
    public static Router start(RouterConfig config, PluginRegistry registry, Runnable beforeWebServer) {
        BackendPool pool = newPool(config, registry);
        AtomicReference<RouterConfig> running = new AtomicReference<>(config);
        RouteTable routes = RouteTable.build(config.routes(), registry);
        logPlan(config, registry);
        BackendDiscovery discovery = BackendDiscovery.start(config.backends(), pool);
        try {
            beforeWebServer.run();
            RouterServer server = RouterServer.start(
                    config.server(), routes, pool, config.proxy(), running::get);
            if (discovery instanceof DnsBackendDiscovery dns) {
                server.metrics().counter("dns_resolutions", "DNS resolutions of the backend name, answered or not",
                        dns::resolutions);
                server.metrics().counter("dns_failures", "DNS resolutions that failed and kept the last backends",
                        dns::failures);
            }
            boolean adminTls = config.server().tls().filter(TlsSettings::admin).isPresent();
            LOG.log(Level.INFO, "listening on {4}://{0}:{1,number,#} (proxy) and {5}://{2}:{3,number,#}/observe/health"
                    + " and /observe/metrics (admin)", config.server().host(), server.port(), config.server().adminHost(),
                    server.adminPort(), server.servesTls() ? "https" : "http", adminTls ? "https" : "http");
            config.server().tls().ifPresent(tls -> LOG.log(Level.INFO, "TLS: {0}{1}", tls.material().certificateText(),
                    tls.material().clientCaText().map(ca -> "; client certificates signed by " + ca).orElse("")));
            return new Router(server, discovery, pool, registry, running);
        } catch (RuntimeException e) {
            discovery.close();
            throw e;
        }
    }

    /** The configuration it runs with: the one it started with, or the last reload applied. */
    public RouterConfig config() {
        return config.get();
    }

    /**
     * Runs with a reloaded configuration from now on: requests and tunnels in flight finish
     * with the one they began with. The caller has checked, with {@link ConfigChanges}, that
     * nothing fixed at start differs.
     *
     * @param next   the new configuration, validated
     * @param change what differs from the running one
     */
    public synchronized void reconfigure(RouterConfig next, ConfigChanges change) {
        if (!change.reloadable()) {
            throw new IllegalArgumentException("needs a restart: " + change.needRestart());
        }
        // Everything a plugin builds first: one that throws leaves the running router untouched.
        RouteTable routes = RouteTable.build(next.routes(), registry);
        RouteStrategy strategy = change.changesStrategy()
                ? registry.strategy(next.strategy().name()).orElseThrow().create(next.strategy().options())
                : null;
        if (strategy != null) {
            pool.strategy(strategy, next.strategy().name(), next.strategy().options());
        }
        server.reconfigure(routes, next.proxy());
        next.logLevel().applyToRouterLog();
        if (change.changed().stream().anyMatch(TLS_FILES::contains)) {
            TlsMaterial material = next.server().tls().orElseThrow().material();
            server.reloadTls(material);
            LOG.log(Level.INFO, "TLS: new handshakes present {0}", material.certificateText());
        }
        if (change.changed().contains(Settings.ROUTES)) {
            LOG.log(Level.INFO, "routes: {0}", describeRoutes(next));
        }
        if (next.backends() instanceof StaticBackends list) {
            StaticBackendDiscovery.replace(list, pool);
        }
        config.set(next);
    }

    /**
     * An empty pool placing keys with the configured strategy and rotating over all backends
     * for requests without one.
     */
    public static BackendPool newPool(RouterConfig config, PluginRegistry registry) {
        return new BackendPool(
                registry.strategy(config.strategy().name()).orElseThrow().create(config.strategy().options()),
                config.strategy().name(), config.strategy().options(),
                registry.strategy("round-robin").orElseThrow().create(PluginOptions.empty()));
    }

    public int port() {
        return server.port();
    }

    /** What the admin port exports. */
    public RouterMetrics metrics() {
        return server.metrics();
    }

    public int adminPort() {
        return server.adminPort();
    }

    /** Ends a running stop delay now: a second SIGTERM or Ctrl-C. */
    public void hurry() {
        LOG.log(Level.INFO, "asked again: stopping now");
        server.hurry();
    }

    /** Stops accepting, lets in-flight requests finish up to the shutdown grace, stops discovery. */
    @Override
    public void close() {
        if (server.stopDelay().isPositive()) {
            LOG.log(Level.INFO, "stopping: not ready; still serving for {0}, then in-flight requests may finish",
                    DurationText.format(server.stopDelay()));
        } else {
            LOG.log(Level.INFO, "stopping: in-flight requests may finish");
        }
        server.close();
        discovery.close();
        LOG.log(Level.INFO, "stopped");
    }

    private static void logPlan(RouterConfig config, PluginRegistry registry) {
        LOG.log(Level.INFO, "strategy {0}{1}", config.strategy().name(),
                config.strategy().options().names().isEmpty() ? "" : " " + config.strategy().options());
        LOG.log(Level.INFO, "routes: {0}", describeRoutes(config));
        LOG.log(Level.INFO, "backends: {0}", switch (config.backends()) {
            case StaticBackends list -> list.backends().isEmpty() ? "none configured"
                    : "static " + list.backends().stream().map(Object::toString).collect(Collectors.joining(", "));
            case DnsBackends dns -> "DNS " + dns.name() + " port " + dns.port() + ", every "
                    + DurationText.format(dns.interval());
        });
        if (registry.plugins().isEmpty()) {
            LOG.log(Level.INFO, "plugins: none");
        }
        registry.plugins().forEach(plugin -> LOG.log(Level.INFO, "plugin {0}", plugin));
    }

    private static String describeRoutes(RouterConfig config) {
        return config.routes().isEmpty() ? "none (every request round-robin)"
                : config.routes().stream().map(Router::describe).collect(Collectors.joining("; "));
    }

    /** {@code POST /v1/responses by json-field(field=user)}: how a route reads in a log or report. */
    public static String describe(RouteSpec route) {
        String methods = route.methods().isEmpty() ? "*" : String.join(",", new java.util.TreeSet<>(route.methods()));
        if (route.learn().isPresent()) {
            return methods + " " + route.path() + " by " + route.learn().get();
        }
        String keys = route.keys().isEmpty() ? "no key" : route.keys().stream()
                .map(key -> key.type() + key.options().names().stream()
                        .map(name -> name + "=" + key.options().get(name).orElse(""))
                        .collect(Collectors.joining(", ", "(", ")")))
                .collect(Collectors.joining(" or "));
        return methods + " " + route.path() + " by " + keys;
    }
}
