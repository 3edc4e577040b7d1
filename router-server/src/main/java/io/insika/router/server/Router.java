package io.insika.router.server;

import java.io.FileDescriptor;
import java.io.FileOutputStream;
import java.lang.System.Logger.Level;
import java.util.Optional;
import java.util.stream.Collectors;

import io.insika.router.api.PluginOptions;
import io.insika.router.server.config.ConfigChange;
import io.insika.router.server.config.DnsBackends;
import io.insika.router.server.config.DurationText;
import io.insika.router.server.config.RouterConfig;
import io.insika.router.server.config.StaticBackends;
import io.insika.router.server.discovery.BackendDiscovery;
import io.insika.router.server.discovery.DnsBackendDiscovery;
import io.insika.router.server.discovery.StaticBackendDiscovery;
import io.insika.router.server.metrics.RouterMetrics;
import io.insika.router.server.plugin.PluginRegistry;
import io.insika.router.server.proxy.AccessLogTarget;
import io.insika.router.server.proxy.ProxySettings;
import io.insika.router.server.routing.BackendPool;
import io.insika.router.server.routing.RouteSpec;
import io.insika.router.server.routing.RouteTable;

/**
 * The whole router, assembled from a validated configuration: discovery keeping the pool
 * current, and the server in front of it. Closing it is the graceful stop.
 */
public final class Router implements AutoCloseable {

    private static final System.Logger LOG = System.getLogger(Router.class.getName());

    private final RouterServer server;
    private final BackendDiscovery discovery;
    private final BackendPool pool;
    private final PluginRegistry registry;
    private volatile RouterConfig config;

    private Router(RouterServer server, BackendDiscovery discovery, BackendPool pool, PluginRegistry registry,
                   RouterConfig config) {
        this.server = server;
        this.discovery = discovery;
        this.pool = pool;
        this.registry = registry;
        this.config = config;
    }

    /**
     * Fills the pool (the first DNS answer included), then listens.
     *
     * @param config   the validated configuration
     * @param registry the strategies and extractors it names
     * @return the running router
     */
    public static Router start(RouterConfig config, PluginRegistry registry) {
        BackendPool pool = newPool(config, registry);
        RouteTable routes = RouteTable.build(config.routes(), registry);
        logPlan(config, registry);
        BackendDiscovery discovery = BackendDiscovery.start(config.backends(), pool);
        try {
            RouterServer server = RouterServer.start(
                    new ServerSettings(config.host(), config.port(), config.adminPort(), config.shutdownGrace(),
                            config.stopDelay(), config.maxConnections()),
                    routes, pool, proxySettings(config));
            if (discovery instanceof DnsBackendDiscovery dns) {
                server.metrics().counter("dns_resolutions", "DNS resolutions of the backend name, answered or not",
                        dns::resolutions);
                server.metrics().counter("dns_failures", "DNS resolutions that failed and kept the last backends",
                        dns::failures);
            }
            LOG.log(Level.INFO, "listening on http://{0}:{1,number,#} (proxy) and http://{0}:{2,number,#}/observe/health"
                    + " and /observe/metrics (admin)", config.host(), server.port(), server.adminPort());
            return new Router(server, discovery, pool, registry, config);
        } catch (RuntimeException e) {
            discovery.close();
            throw e;
        }
    }

    private static ProxySettings proxySettings(RouterConfig config) {
        return new ProxySettings(config.bodyMaxBytes(), config.backendTimeout(), config.clientBodyTimeout(),
                config.clientSendTimeout(),
                // straight to the descriptor: System.out's PrintStream locks and flushes per call
                config.accessLog()
                        ? Optional.of(new AccessLogTarget(new FileOutputStream(FileDescriptor.out), config.logFormat()))
                        : Optional.empty(),
                config.trustedProxies(), config.maxRequests(), config.peekBudget(), config.capacity(),
                config.health(), config.sessions());
    }

    /** The configuration it runs with: the one it started with, or the last reload applied. */
    public RouterConfig config() {
        return config;
    }

    /**
     * Runs with a reloaded configuration from now on: requests and tunnels in flight finish
     * with the one they began with. The caller has checked, with {@link ConfigChange}, that
     * nothing fixed at start differs.
     *
     * @param next   the new configuration, validated
     * @param change what differs from the running one
     */
    public synchronized void reconfigure(RouterConfig next, ConfigChange change) {
        if (!change.restartOnly().isEmpty()) {
            throw new IllegalArgumentException("needs a restart: " + change.restartOnly());
        }
        RouteTable routes = RouteTable.build(next.routes(), registry);
        if (change.changesStrategy()) {
            pool.strategy(registry.strategy(next.strategy()).orElseThrow().create(next.strategyOptions()),
                    next.strategy(), next.strategyOptions());
        }
        server.reconfigure(routes, proxySettings(next));
        if (next.backends() instanceof StaticBackends list) {
            StaticBackendDiscovery.replace(list, pool);
        }
        config = next;
    }

    /**
     * An empty pool placing keys with the configured strategy and rotating over all backends
     * for requests without one.
     */
    public static BackendPool newPool(RouterConfig config, PluginRegistry registry) {
        return new BackendPool(
                registry.strategy(config.strategy()).orElseThrow().create(config.strategyOptions()),
                config.strategy(), config.strategyOptions(),
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
        LOG.log(Level.INFO, "strategy {0}{1}", config.strategy(),
                config.strategyOptions().names().isEmpty() ? "" : " " + config.strategyOptions());
        LOG.log(Level.INFO, "routes: {0}", config.routes().isEmpty() ? "none (every request round-robin)"
                : config.routes().stream().map(Router::describe).collect(Collectors.joining("; ")));
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
