package io.insika.router.server.config;

import java.time.Duration;
import java.util.List;
import java.util.Objects;

import io.insika.router.api.PluginOptions;
import io.insika.router.server.backends.BackendCapacity;
import io.insika.router.server.backends.HealthSettings;
import io.insika.router.server.logging.LogFormat;
import io.insika.router.server.proxy.TrustedProxies;
import io.insika.router.server.routing.RouteSpec;
import io.insika.router.server.session.SessionSeal;

/**
 * The router's whole configuration: typed, immutable, and already validated by
 * {@link RouterConfigLoader}, so a component handed a part of it never re-checks. Each value is
 * the environment's if set, else the YAML's, else the default below.
 *
 * @param host            address the proxy listens on; default {@code 0.0.0.0}
 *                        ({@code server.host}, {@code INSIKA_ROUTER_HOST})
 * @param port            proxy port, 0 to 65535 (0 picks a free port); default 9090
 *                        ({@code server.port}, {@code INSIKA_ROUTER_PORT})
 * @param adminPort       port of the observe endpoints ({@code /observe/health}), never proxied
 *                        and never equal to {@code port} unless both are 0; default 9091
 *                        ({@code server.admin-port})
 * @param shutdownGrace   how long in-flight requests may finish after SIGTERM; zero or more;
 *                        default 10 s ({@code server.shutdown-grace})
 * @param stopDelay       after SIGTERM, how long requests are still accepted while readiness
 *                        is down, before the listener closes; zero or more; default 0
 *                        ({@code server.stop-delay}, {@code INSIKA_ROUTER_STOP_DELAY})
 * @param maxConnections  client connections the proxy port holds at once; past it, new ones wait
 *                        in the listen backlog; default 4096 ({@code server.max-connections},
 *                        {@code INSIKA_ROUTER_MAX_CONNECTIONS})
 * @param strategy        the placement strategy's provider name; default {@code ketama}
 *                        ({@code strategy.name}, {@code INSIKA_ROUTER_STRATEGY})
 * @param strategyOptions options handed to that provider, path {@code strategy.options}; empty
 *                        by default, and dropped when the environment names another strategy
 *                        than the YAML
 * @param backends        where backends come from; default an empty static list
 *                        ({@code backends.static} / {@code backends.dns},
 *                        {@code INSIKA_ROUTER_BACKENDS} / {@code INSIKA_ROUTER_BACKENDS_DNS})
 * @param capacity        each backend's request and tunnel slots: {@code backends.max-requests}
 *                        and {@code backends.max-tunnels} ({@code INSIKA_ROUTER_BACKEND_MAX_REQUESTS},
 *                        {@code INSIKA_ROUTER_BACKEND_MAX_TUNNELS}), or a static entry's own; default
 *                        no limit
 * @param health          when a backend counts as down ({@code health.down-time}, default 2 s) and
 *                        its active checks ({@code health.path}, none by default; {@code interval}
 *                        5 s, {@code timeout} 2 s); each with an {@code INSIKA_ROUTER_HEALTH_*} variable
 * @param bodyMaxBytes    how much of a request body may be read looking for a key (never a cap
 *                        on what is forwarded); positive; default 262144
 *                        ({@code proxy.body-max-bytes}, {@code INSIKA_ROUTER_BODY_MAX_BYTES})
 * @param backendTimeout  connect and read-idle timeout towards a backend; positive; default 10 s
 *                        ({@code proxy.backend-timeout}, {@code INSIKA_ROUTER_BACKEND_TIMEOUT})
 * @param clientBodyTimeout the longest a client may pause while sending a request body, after
 *                        which its connection is closed; positive; default 60 s
 *                        ({@code proxy.client-body-timeout}, {@code INSIKA_ROUTER_CLIENT_BODY_TIMEOUT})
 * @param clientSendTimeout the longest a client may leave its answer unread, after which its
 *                        connection is closed; positive; default 60 s
 *                        ({@code proxy.client-send-timeout}, {@code INSIKA_ROUTER_CLIENT_SEND_TIMEOUT})
 * @param trustedProxies  the peers (load balancers, ingresses) whose {@code X-Forwarded-*}
 *                        headers are believed; default none ({@code proxy.trusted-proxies},
 *                        {@code INSIKA_ROUTER_TRUSTED_PROXIES})
 * @param maxRequests     proxied requests in flight at once, past which the retry envelope is
 *                        the answer; default 1024 ({@code proxy.max-requests},
 *                        {@code INSIKA_ROUTER_MAX_REQUESTS})
 * @param peekBudget      bytes all key peeks may hold together beyond the first 8 KiB of each;
 *                        default 32 MiB ({@code proxy.peek-budget}, {@code INSIKA_ROUTER_PEEK_BUDGET})
 * @param accessLog       whether each proxied request is logged, one line, to {@code insika.access};
 *                        default false ({@code proxy.access-log}, {@code INSIKA_ROUTER_ACCESS_LOG})
 * @param logFormat       {@code text} or {@code json} lines for the router's log and the access log;
 *                        default text ({@code logging.format}, {@code INSIKA_ROUTER_LOG_FORMAT})
 * @param routes          the keyed routes, first match wins; default
 *                        {@link io.insika.router.server.routing.DefaultRoutes#specs()} when the
 *                        YAML has no {@code routes}
 * @param origins         where each value came from
 * @param strategyChangeOnReload whether a reload may change the strategy or its options, which
 *                        moves most sessions; default false, so such a reload is refused
 *                        ({@code strategy.allow-change-on-reload})
 * @param sessions        seals the session ids backends mint on routes that {@code learn} their
 *                        key; {@link SessionSeal#NONE} unless {@code sessions.secret-file}
 *                        ({@code INSIKA_ROUTER_SESSION_SECRET_FILE}) is set
 */
public record RouterConfig(String host, int port, int adminPort, Duration shutdownGrace, Duration stopDelay,
                           int maxConnections, String strategy,
                           PluginOptions strategyOptions, BackendSource backends, BackendCapacity capacity,
                           HealthSettings health, int bodyMaxBytes,
                           Duration backendTimeout, Duration clientBodyTimeout,
                           Duration clientSendTimeout, TrustedProxies trustedProxies, int maxRequests,
                           int peekBudget, boolean accessLog, LogFormat logFormat,
                           List<RouteSpec> routes,
                           ConfigOrigins origins, boolean strategyChangeOnReload, SessionSeal sessions) {

    public static final String DEFAULT_HOST = "0.0.0.0";
    public static final int DEFAULT_PORT = 9090;
    public static final int DEFAULT_ADMIN_PORT = 9091;
    public static final Duration DEFAULT_SHUTDOWN_GRACE = Duration.ofSeconds(10);
    public static final String DEFAULT_STRATEGY = "ketama";
    public static final int DEFAULT_BODY_MAX_BYTES = 262_144;
    public static final Duration DEFAULT_BACKEND_TIMEOUT = Duration.ofSeconds(10);
    public static final Duration DEFAULT_CLIENT_BODY_TIMEOUT = Duration.ofSeconds(60);
    public static final Duration DEFAULT_CLIENT_SEND_TIMEOUT = Duration.ofSeconds(60);

    public RouterConfig {
        Objects.requireNonNull(host, "host");
        Objects.requireNonNull(shutdownGrace, "shutdownGrace");
        Objects.requireNonNull(stopDelay, "stopDelay");
        Objects.requireNonNull(strategy, "strategy");
        Objects.requireNonNull(strategyOptions, "strategyOptions");
        Objects.requireNonNull(backends, "backends");
        Objects.requireNonNull(logFormat, "logFormat");
        Objects.requireNonNull(capacity, "capacity");
        Objects.requireNonNull(health, "health");
        Objects.requireNonNull(backendTimeout, "backendTimeout");
        Objects.requireNonNull(clientBodyTimeout, "clientBodyTimeout");
        Objects.requireNonNull(clientSendTimeout, "clientSendTimeout");
        Objects.requireNonNull(trustedProxies, "trustedProxies");
        routes = List.copyOf(routes);
        Objects.requireNonNull(origins, "origins");
        Objects.requireNonNull(sessions, "sessions");
    }
}
