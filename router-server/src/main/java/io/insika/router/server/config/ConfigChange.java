package io.insika.router.server.config;

import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.function.Function;

/**
 * What a reloaded configuration changes against the running one, key by key, and whether a
 * running router may apply it: the listeners, the heap-sized limits, health checking, the
 * backends' source and the log format are fixed at start; a change of strategy or its options
 * moves most sessions and is applied only when the new file says
 * {@code strategy.allow-change-on-reload: true}.
 *
 * @param applied     the reloadable keys whose value changes
 * @param restartOnly the keys that change but need a restart, each as {@code key: old -> new}
 * @param strategy    the strategy change as {@code old -> new}, or empty when it is the same
 */
public record ConfigChange(List<String> applied, List<String> restartOnly, String strategy) {

    /** One key's effective value, as comparable text, and whether a reload may change it. */
    private record Key(String name, boolean reloadable, Function<RouterConfig, Object> value) {
    }

    private static final List<Key> KEYS = List.of(
            new Key("server.host", false, RouterConfig::host),
            new Key("server.port", false, RouterConfig::port),
            new Key("server.admin-port", false, RouterConfig::adminPort),
            new Key("server.shutdown-grace", false, c -> DurationText.format(c.shutdownGrace())),
            new Key("server.stop-delay", false, c -> DurationText.format(c.stopDelay())),
            new Key("server.max-connections", false, RouterConfig::maxConnections),
            new Key("logging.format", false, c -> c.logFormat().label()),
            new Key("proxy.max-requests", false, RouterConfig::maxRequests),
            new Key("proxy.peek-budget", false, RouterConfig::peekBudget),
            new Key("health", false, RouterConfig::health),
            // the seal by its secrets' fingerprints: a file rewritten in place counts too
            new Key("sessions.secret-file / previous-secret-file", false, c -> c.sessions().description()),
            new Key("backends.dns", false, c -> c.backends() instanceof DnsBackends dns ? dns : "none"),
            new Key("backends.static", true, c -> c.backends() instanceof StaticBackends list ? list : "none"),
            new Key("backends.max-requests / max-tunnels", true, RouterConfig::capacity),
            new Key("routes", true, RouterConfig::routes),
            new Key("proxy.body-max-bytes", true, RouterConfig::bodyMaxBytes),
            new Key("proxy.backend-timeout", true, c -> DurationText.format(c.backendTimeout())),
            new Key("proxy.client-body-timeout", true, c -> DurationText.format(c.clientBodyTimeout())),
            new Key("proxy.client-send-timeout", true, c -> DurationText.format(c.clientSendTimeout())),
            new Key("proxy.trusted-proxies", true, c -> c.trustedProxies().toString()),
            new Key("proxy.access-log", true, RouterConfig::accessLog));

    public ConfigChange {
        applied = List.copyOf(applied);
        restartOnly = List.copyOf(restartOnly);
        Objects.requireNonNull(strategy, "strategy");
    }

    /**
     * @param running the configuration the router runs with
     * @param next    the one just read and validated
     * @return what differs
     */
    public static ConfigChange between(RouterConfig running, RouterConfig next) {
        List<String> applied = new ArrayList<>();
        List<String> restartOnly = new ArrayList<>();
        for (Key key : KEYS) {
            Object before = key.value().apply(running);
            Object after = key.value().apply(next);
            if (!before.equals(after)) {
                if (key.reloadable()) {
                    applied.add(key.name());
                } else {
                    restartOnly.add(describe(key.name(), String.valueOf(before), String.valueOf(after)));
                }
            }
        }
        boolean sameStrategy = running.strategy().equals(next.strategy())
                && running.strategyOptions().equals(next.strategyOptions());
        return new ConfigChange(applied, restartOnly, sameStrategy ? ""
                : strategy(running) + " -> " + strategy(next));
    }

    /** Whether nothing a reload could apply or refuse differs. */
    public boolean isEmpty() {
        return applied.isEmpty() && restartOnly.isEmpty() && strategy.isEmpty();
    }

    public boolean changesStrategy() {
        return !strategy.isEmpty();
    }

    private static String strategy(RouterConfig config) {
        return config.strategy() + (config.strategyOptions().names().isEmpty() ? "" : " " + config.strategyOptions());
    }

    // values short enough for one log line; a structured one (health, DNS) is named only
    private static String describe(String key, String before, String after) {
        return before.length() + after.length() <= 80 ? key + ": " + before + " -> " + after : key + " changed";
    }
}
