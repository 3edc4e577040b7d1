package io.insika.router.server.config;

import java.time.Duration;
import java.util.List;
import java.util.Objects;

import io.insika.router.server.ServerSettings;
import io.insika.router.server.logging.LogFormat;
import io.insika.router.server.logging.LogLevel;
import io.insika.router.server.proxy.ProxySettings;
import io.insika.router.server.routing.RouteSpec;
import io.insika.router.server.routing.StrategySettings;

/**
 * The router's whole configuration: typed, immutable, and already validated by
 * {@link RouterConfigLoader}, so a component handed a part of it never re-checks. It is made of
 * the parts each component is built from, so a reload hands each its new part: the listeners
 * their {@link ServerSettings}, the backend pool its {@link StrategySettings}, discovery its
 * {@link BackendSource}, the proxy its {@link ProxySettings} and its routes. Every key, its
 * default, variable and whether a reload may change it: {@link Settings}.
 *
 * @param server              the listeners: {@code server.*}
 * @param strategy            the placement strategy: {@code strategy.*}
 * @param backends            where backends come from: {@code backends.static} or {@code backends.dns}
 * @param proxy               the proxy: {@code proxy.*}, the backends' slots ({@code backends.max-*}),
 *                            {@code health.*} and the seal of learned session ids ({@code sessions.*});
 *                            its access log, when on, goes to standard output
 * @param routes              the keyed routes, first match wins; the seed's table when the YAML
 *                            has no {@code routes}
 * @param logFormat           {@code text} or {@code json} lines for the router's log and the access log
 * @param logLevel            the router's own log from this level up
 * @param reloadWatchInterval how often the file is checked for a change, which is then reloaded
 *                            as on SIGHUP; zero reloads on SIGHUP only
 * @param origins             where each value came from
 */
public record RouterConfig(ServerSettings server, StrategySettings strategy, BackendSource backends,
                           ProxySettings proxy, List<RouteSpec> routes, LogFormat logFormat,
                           LogLevel logLevel, Duration reloadWatchInterval, ConfigOrigins origins) {

    public RouterConfig {
        Objects.requireNonNull(server, "server");
        Objects.requireNonNull(strategy, "strategy");
        Objects.requireNonNull(backends, "backends");
        Objects.requireNonNull(proxy, "proxy");
        routes = List.copyOf(routes);
        Objects.requireNonNull(logFormat, "logFormat");
        Objects.requireNonNull(logLevel, "logLevel");
        Objects.requireNonNull(reloadWatchInterval, "reloadWatchInterval");
        Objects.requireNonNull(origins, "origins");
    }
}
