package io.insika.router.server.cli;

import java.time.Duration;
import java.util.stream.Collectors;

import io.insika.router.server.config.DnsBackends;
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
            case "server.shutdown-grace" -> text(config.shutdownGrace());
            case "strategy.name" -> config.strategy();
            case "strategy.options" -> config.strategyOptions().names().stream()
                    .map(name -> name + "=" + config.strategyOptions().get(name).orElse(""))
                    .collect(Collectors.joining(", ", "{", "}"));
            case "proxy.body-max-bytes" -> String.valueOf(config.bodyMaxBytes());
            case "proxy.backend-timeout" -> text(config.backendTimeout());
            case "proxy.client-body-timeout" -> text(config.clientBodyTimeout());
            case "proxy.access-log" -> String.valueOf(config.accessLog());
            case "routes" -> config.routes().size() + " route(s)";
            case "backends.static" -> config.backends() instanceof StaticBackends list
                    ? (list.backends().isEmpty() ? "none" : list.backends().stream().map(Object::toString)
                            .collect(Collectors.joining(", ")))
                    : "";
            default -> config.backends() instanceof DnsBackends dns ? dns(dns, key) : "";
        };
    }

    private static String dns(DnsBackends dns, String key) {
        return switch (key) {
            case "backends.dns.name" -> dns.name();
            case "backends.dns.port" -> String.valueOf(dns.port());
            case "backends.dns.interval" -> text(dns.interval());
            case "backends.dns.resolver" -> dns.resolver().map(Object::toString).orElse("the system's");
            case "backends.dns.timeout" -> text(dns.timeout());
            default -> "";
        };
    }

    // In the form a user writes in the YAML (10s, 500ms, 2m), not ISO-8601's PT10S.
    static String text(Duration duration) {
        long millis = duration.toMillis();
        if (!duration.equals(Duration.ofMillis(millis))) {
            return duration.toString(); // below a millisecond: only ISO says it exactly
        }
        if (millis != 0 && millis % 3_600_000 == 0) {
            return millis / 3_600_000 + "h";
        }
        if (millis != 0 && millis % 60_000 == 0) {
            return millis / 60_000 + "m";
        }
        if (millis % 1_000 == 0) {
            return millis / 1_000 + "s";
        }
        return millis + "ms";
    }
}
