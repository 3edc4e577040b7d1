package io.insika.router.server.cli;

import java.util.TreeMap;
import java.util.function.ToIntFunction;
import java.util.stream.Collectors;

import io.insika.router.server.backends.BackendLimits;
import io.insika.router.server.config.AddressTemplate;
import io.insika.router.server.config.DnsBackends;
import io.insika.router.server.config.DurationText;
import io.insika.router.server.config.RouterConfig;
import io.insika.router.server.config.StaticBackends;

/** The effective value behind each key {@code check} reports, as text. */
final class ConfigValues {

    private ConfigValues() {
    }

    static String of(RouterConfig config, String key) {
        return switch (key) {
            case "server.host" -> config.host();
            case "server.port" -> String.valueOf(config.port());
            case "server.admin-port" -> String.valueOf(config.adminPort());
            case "server.shutdown-grace" -> DurationText.format(config.shutdownGrace());
            case "server.stop-delay" -> DurationText.format(config.stopDelay());
            case "server.max-connections" -> String.valueOf(config.maxConnections());
            case "strategy.name" -> config.strategy();
            case "strategy.options" -> config.strategyOptions().names().stream()
                    .map(name -> name + "=" + config.strategyOptions().get(name).orElse(""))
                    .collect(Collectors.joining(", ", "{", "}"));
            case "strategy.allow-change-on-reload" -> String.valueOf(config.strategyChangeOnReload());
            case "proxy.body-max-bytes" -> String.valueOf(config.bodyMaxBytes());
            case "proxy.backend-timeout" -> DurationText.format(config.backendTimeout());
            case "proxy.client-body-timeout" -> DurationText.format(config.clientBodyTimeout());
            case "proxy.client-send-timeout" -> DurationText.format(config.clientSendTimeout());
            case "proxy.trusted-proxies" -> config.trustedProxies().isEmpty() ? "(none)" : config.trustedProxies().toString();
            case "proxy.max-requests" -> String.valueOf(config.maxRequests());
            case "proxy.peek-budget" -> String.valueOf(config.peekBudget());
            case "proxy.access-log" -> String.valueOf(config.accessLog());
            case "logging.format" -> config.logFormat().label();
            case "routes" -> config.routes().size() + " route(s)";
            // the secrets by fingerprint only: a check's output may be pasted anywhere
            case "sessions.secret-file" -> config.sessions().fingerprint().map(f -> "secret " + f).orElse("(none)");
            case "sessions.previous-secret-file" -> config.sessions().previousFingerprint().map(f -> "secret " + f)
                    .orElse("(none)");
            case "backends.max-requests" -> slots(config, BackendLimits::maxRequests);
            case "backends.max-tunnels" -> slots(config, BackendLimits::maxTunnels);
            case "health.down-time" -> DurationText.format(config.health().downTime());
            case "health.path" -> config.health().path().orElse("(no active checks)");
            case "health.interval" -> DurationText.format(config.health().interval());
            case "health.timeout" -> DurationText.format(config.health().timeout());
            case "backends.static" -> config.backends() instanceof StaticBackends list
                    ? (list.backends().isEmpty() ? "none" : list.backends().stream().map(Object::toString)
                            .collect(Collectors.joining(", ")))
                    : "";
            default -> config.backends() instanceof DnsBackends dns ? dns(dns, key) : "";
        };
    }

    // the default, then each static backend that has its own: "16; 10.0.0.3:9292 0"
    private static String slots(RouterConfig config, ToIntFunction<BackendLimits> which) {
        StringBuilder text = new StringBuilder(limit(which.applyAsInt(config.capacity().defaults())));
        new TreeMap<>(config.capacity().perBackend()).forEach((id, limits) ->
                text.append("; ").append(id).append(' ').append(limit(which.applyAsInt(limits))));
        return text.toString();
    }

    private static String limit(int slots) {
        return slots == 0 ? "0 (no limit)" : String.valueOf(slots);
    }

    private static String dns(DnsBackends dns, String key) {
        return switch (key) {
            case "backends.dns.name" -> dns.name();
            case "backends.dns.port" -> String.valueOf(dns.port());
            case "backends.dns.interval" -> DurationText.format(dns.interval());
            case "backends.dns.resolver" -> dns.resolver().map(Object::toString).orElse("the system's");
            case "backends.dns.timeout" -> DurationText.format(dns.timeout());
            case "backends.dns.id" -> dns.id().text();
            case "backends.dns.public-address" -> dns.publicAddress().map(AddressTemplate::text).orElse("(none)");
            default -> "";
        };
    }
}
