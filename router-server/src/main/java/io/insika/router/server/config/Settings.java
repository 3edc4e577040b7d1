package io.insika.router.server.config;

import java.time.Duration;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.function.Function;
import java.util.function.ToIntFunction;
import java.util.stream.Collectors;

import io.insika.router.api.Backend;
import io.insika.router.server.ServerSettings;
import io.insika.router.server.backends.BackendLimits;
import io.insika.router.server.backends.HealthSettings;
import io.insika.router.server.logging.LogFormat;
import io.insika.router.server.logging.LogLevel;
import io.insika.router.server.proxy.Http2Settings;
import io.insika.router.server.proxy.ProxySettings;
import io.insika.router.server.proxy.TrustedProxies;
import io.insika.router.server.proxy.OpenLimit;
import io.insika.router.server.tls.TlsSettings;

import static io.insika.router.server.config.Reload.LIVE;
import static io.insika.router.server.config.Reload.OPT_IN;
import static io.insika.router.server.config.Reload.RESTART;
import static io.insika.router.server.config.Reload.WHILE_ON;

/**
 * Every configuration key, once: its YAML path, variable, type, default, doc line, how
 * {@code check} prints it and whether a reload can apply it. The loader reads these, the schema
 * of known keys, {@code check}'s lines and the docs' reference table are made from them, so a
 * new key is one row here (and a line in each YAML).
 */
public final class Settings {

    /** For a key no environment variable overrides. */
    static final String NO_VARIABLE = "";

    private static final ValueType<Integer> CONNECTIONS = ValueType.integer(1, 1_000_000,
            "a whole number from 1 to 1000000");

    public static final Setting<String> HOST = Setting.of("server.host", "INSIKA_ROUTER_HOST", ValueType.host(),
            "0.0.0.0", RESTART, "Address the proxy listens on.", c -> c.server().host());
    public static final Setting<Integer> PORT = Setting.of("server.port", "INSIKA_ROUTER_PORT", ValueType.listenPort(),
            9090, RESTART, "Port the proxy listens on; 0 picks any free port.", c -> c.server().port());
    public static final Setting<String> ADMIN_HOST = Setting.printed("server.admin-host", "INSIKA_ROUTER_ADMIN_HOST",
            ValueType.hostOrEmpty(), "", RESTART,
            "Address the observe endpoints listen on; empty: `server.host`'s. Whoever reaches it reads the"
                    + " configuration, the backends and any key's owner.",
            c -> c.server().adminHost());
    public static final Setting<Integer> ADMIN_PORT = Setting.of("server.admin-port", "INSIKA_ROUTER_ADMIN_PORT",
            ValueType.listenPort(), 9091, RESTART,
            "Port of the observe endpoints, never proxied; never the proxy's port unless both are 0.",
            c -> c.server().adminPort());
    public static final Setting<Duration> SHUTDOWN_GRACE = Setting.of("server.shutdown-grace", NO_VARIABLE,
            ValueType.durationOrZero(), Duration.ofSeconds(10), RESTART,
            "After SIGTERM, how long in-flight requests may finish.", c -> c.server().shutdownGrace());
    public static final Setting<Duration> STOP_DELAY = Setting.of("server.stop-delay", "INSIKA_ROUTER_STOP_DELAY",
            ValueType.durationOrZero(), Duration.ZERO, RESTART,
            "After SIGTERM, how long new requests are still accepted while readiness is down.", c -> c.server().stopDelay());
    public static final Setting<Integer> MAX_CONNECTIONS = Setting.printed("server.max-connections",
            "INSIKA_ROUTER_MAX_CONNECTIONS", ValueType.integer(0, 1_000_000, "a whole number from 0 to 1000000"),
            ServerSettings.DEFAULT_MAX_CONNECTIONS, RESTART,
            "Client connections the proxy port holds at once. 0: as many as half the heap holds.",
            c -> c.server().maxConnections() > 0 ? Integer.toString(c.server().maxConnections())
                    : "0 (" + OpenLimit.connectionsForHeap(Runtime.getRuntime().maxMemory()) + " for this heap)");
    public static final Setting<Duration> HEAD_TIMEOUT = Setting.of("server.head-timeout",
            "INSIKA_ROUTER_HEAD_TIMEOUT", ValueType.positiveDuration(), ServerSettings.DEFAULT_HEAD_TIMEOUT, RESTART,
            "How long a request head may take to arrive, from its first byte (a new connection's first"
                    + " request and TLS handshake: from its accept); then the connection closes.",
            c -> c.server().headTimeout());
    public static final Setting<Duration> IDLE_TIMEOUT = Setting.of("server.idle-timeout",
            "INSIKA_ROUTER_IDLE_TIMEOUT", ValueType.positiveDuration(), ServerSettings.DEFAULT_IDLE_TIMEOUT, RESTART,
            "How long a client connection may wait for its next request; then it closes.",
            c -> c.server().idleTimeout());
    public static final Setting<Boolean> LEAN_HTTP1 = Setting.of("server.lean-http1", "INSIKA_ROUTER_LEAN_HTTP1",
            ValueType.bool(), true, RESTART,
            "`true` frames plain HTTP/1.1 requests in the router and hands any other to Helidon; `false` hands all"
                    + " but chunked bodies and HTTP/1.0.",
            c -> c.server().leanHttp1());
    public static final Setting<Boolean> HTTP2 = Setting.of("server.http2", "INSIKA_ROUTER_HTTP2", ValueType.bool(),
            Http2Settings.DEFAULTS.enabled(), RESTART, "`true` serves HTTP/2 on the proxy port: ALPN `h2` over TLS,"
                    + " prior knowledge on plain sockets; each stream goes to its backend as an HTTP/1.1 request.",
            c -> c.server().http2().enabled());
    public static final Setting<Integer> HTTP2_MAX_CONCURRENT_STREAMS = Setting.of(
            "server.http2-max-concurrent-streams", "INSIKA_ROUTER_HTTP2_MAX_CONCURRENT_STREAMS",
            ValueType.integer(1, 10_000, "a whole number from 1 to 10000"),
            Http2Settings.DEFAULT_MAX_CONCURRENT_STREAMS, RESTART,
            "Streams one HTTP/2 connection may have open at once; a client that opens more loses the connection"
                    + " (GOAWAY).", c -> c.server().http2().maxConcurrentStreams());
    public static final Setting<Integer> HTTP2_MAX_HEADER_LIST_SIZE = Setting.of(
            "server.http2-max-header-list-size", "INSIKA_ROUTER_HTTP2_MAX_HEADER_LIST_SIZE",
            ValueType.integer(1024, 1_048_576, "a whole number from 1024 to 1048576"),
            Http2Settings.DEFAULT_MAX_HEADER_LIST_SIZE, RESTART,
            "The largest header list, in bytes as RFC 9113 counts them, an HTTP/2 request may carry.",
            c -> c.server().http2().maxHeaderListSize());
    public static final Setting<Integer> HTTP2_INITIAL_WINDOW_SIZE = Setting.of(
            "server.http2-initial-window-size", "INSIKA_ROUTER_HTTP2_INITIAL_WINDOW_SIZE",
            ValueType.integer(1, Integer.MAX_VALUE, "a whole number from 1 to 2147483647"),
            Http2Settings.DEFAULT_INITIAL_WINDOW_SIZE, RESTART,
            "Bytes of an HTTP/2 request body a client may send ahead of the router reading them, per stream.",
            c -> c.server().http2().initialWindowSize());
    public static final Setting<String> TLS_CERTIFICATE = Setting.printed("server.tls.certificate",
            "INSIKA_ROUTER_TLS_CERTIFICATE", ValueType.path(), "", WHILE_ON,
            "A PEM file: the proxy port's certificate, then its intermediates; empty: plain HTTP. A reload (or the"
                    + " watch) rereads it.",
            c -> c.server().tls().map(tls -> tls.material().certificateText()).orElse(Reload.OFF));
    public static final Setting<String> TLS_PRIVATE_KEY = Setting.printed("server.tls.private-key",
            "INSIKA_ROUTER_TLS_PRIVATE_KEY", ValueType.path(), "", WHILE_ON,
            "A PEM file: the certificate's private key, unencrypted PKCS#8, PKCS#1 (RSA) or SEC1 (EC).",
            c -> c.server().tls().map(tls -> tls.material().privateKeyFile().toString()).orElse(Reload.OFF));
    public static final Setting<String> TLS_CLIENT_CA = Setting.printed("server.tls.client-ca",
            "INSIKA_ROUTER_TLS_CLIENT_CA", ValueType.path(), "", WHILE_ON,
            "A PEM file of CA certificates: a client must present a certificate one of them signed (mutual TLS);"
                    + " empty: none asked for.",
            c -> c.server().tls().flatMap(tls -> tls.material().clientCaText()).orElse(Reload.OFF));
    public static final Setting<Boolean> TLS_ADMIN = Setting.of("server.tls.admin", "INSIKA_ROUTER_TLS_ADMIN",
            ValueType.bool(), false, RESTART,
            "`true` serves the admin port over TLS too, with the same certificate and no client certificate asked.",
            c -> c.server().tls().map(TlsSettings::admin).orElse(false));

    public static final Setting<String> STRATEGY = Setting.of("strategy.name", "INSIKA_ROUTER_STRATEGY",
            ValueType.word(), "ketama", OPT_IN, "The placement strategy: `ketama`, `rendezvous`, `round-robin` or a plugin's.",
            c -> c.strategy().name());
    public static final StructuredKey STRATEGY_OPTIONS = new StructuredKey("strategy.options", Optional.empty(),
            "none", OPT_IN, "Options handed to the strategy as written; dropped when the variable names another strategy.",
            Settings::strategyOptions, Settings::strategyOptions, Settings::strategyOptionsWhole);
    public static final Setting<Boolean> STRATEGY_CHANGE_ON_RELOAD = Setting.of("strategy.allow-change-on-reload",
            NO_VARIABLE, ValueType.bool(), false, LIVE,
            "Let a reload change the strategy or its options, which moves most sessions.",
            c -> c.strategy().allowChangeOnReload());

    public static final Setting<Integer> BACKEND_MAX_REQUESTS = Setting.printed("backends.max-requests",
            "INSIKA_ROUTER_BACKEND_MAX_REQUESTS", ValueType.slots(), 0, LIVE,
            "Each backend's request slots (0: no limit), unless its static entry sets its own.",
            config -> slots(config, BackendLimits::maxRequests));
    public static final Setting<Integer> BACKEND_MAX_TUNNELS = Setting.printed("backends.max-tunnels",
            "INSIKA_ROUTER_BACKEND_MAX_TUNNELS", ValueType.slots(), 0, LIVE,
            "Each backend's tunnel slots (0: no limit), unless its static entry sets its own.",
            config -> slots(config, BackendLimits::maxTunnels));
    public static final StructuredKey BACKENDS_STATIC = new StructuredKey("backends.static",
            Optional.of("INSIKA_ROUTER_BACKENDS"), "none", LIVE,
            "Static mode: backend URLs `http(s)://host:port` (the variable: comma-separated), or entries with"
                    + " a weight, id, public address and slots of their own.",
            Settings::staticBackends, config -> config.backends() instanceof StaticBackends list ? list : "",
            Settings::staticBackendsWhole);

    public static final Setting<String> DNS_NAME = dns("backends.dns.name", "INSIKA_ROUTER_BACKENDS_DNS",
            ValueType.dnsName(), "", "DNS mode: the fully qualified name to re-resolve, such as a headless Service's.",
            DnsBackends::name).defaultShownAs("— (required in DNS mode)");
    public static final Setting<Integer> DNS_PORT = dns("backends.dns.port", "INSIKA_ROUTER_BACKEND_PORT",
            ValueType.backendPort(), 0, "The port on every DNS-resolved backend.", DnsBackends::port)
            .defaultShownAs("— (required in DNS mode)");
    public static final Setting<Duration> DNS_INTERVAL = dns("backends.dns.interval", "INSIKA_ROUTER_DNS_INTERVAL",
            ValueType.positiveDuration(), DnsBackends.DEFAULT_INTERVAL, "Time between DNS resolutions.",
            DnsBackends::interval);
    public static final Setting<Optional<java.net.InetSocketAddress>> DNS_RESOLVER = dnsPrinted("backends.dns.resolver",
            NO_VARIABLE, ValueType.optional(ValueType.resolverAddress()), Optional.empty(),
            "The DNS server asked, an IP address with an optional port.",
            dns -> dns.resolver().map(Object::toString).orElse("the system's")).defaultShownAs("the system's");
    public static final Setting<Duration> DNS_TIMEOUT = dns("backends.dns.timeout", NO_VARIABLE,
            ValueType.positiveDuration(), DnsBackends.DEFAULT_TIMEOUT,
            "How long one query may take before the resolution counts as failed.", DnsBackends::timeout);
    public static final Setting<AddressTemplate> DNS_ID = dns("backends.dns.id", NO_VARIABLE, ValueType.idTemplate(),
            AddressTemplate.DEFAULT_ID, "Each resolved backend's placement id, a template over its address.",
            DnsBackends::id);
    public static final Setting<Optional<AddressTemplate>> DNS_PUBLIC_ADDRESS = dnsPrinted("backends.dns.public-address",
            NO_VARIABLE, ValueType.optional(ValueType.publicAddressTemplate()), Optional.empty(),
            "Each resolved backend's public address for redirects, a template over its address.",
            dns -> dns.publicAddress().map(AddressTemplate::text).orElse("(none)")).defaultShownAs("none");

    public static final Setting<Duration> HEALTH_DOWN_TIME = Setting.of("health.down-time",
            "INSIKA_ROUTER_HEALTH_DOWN_TIME", ValueType.positiveDuration(), HealthSettings.DEFAULT_DOWN_TIME, RESTART,
            "How long a backend whose connect failed counts as down.", config -> config.proxy().health().downTime());
    public static final Setting<String> HEALTH_PATH = Setting.printed("health.path", "INSIKA_ROUTER_HEALTH_PATH",
            ValueType.healthPath(), "", RESTART, "The path active health checks ask; empty: no active checks.",
            config -> config.proxy().health().path().orElse("(no active checks)"));
    public static final Setting<Duration> HEALTH_INTERVAL = Setting.of("health.interval",
            "INSIKA_ROUTER_HEALTH_INTERVAL", ValueType.positiveDuration(), HealthSettings.DEFAULT_INTERVAL, RESTART,
            "Between two active checks of one backend.", config -> config.proxy().health().interval());
    public static final Setting<Duration> HEALTH_TIMEOUT = Setting.of("health.timeout",
            "INSIKA_ROUTER_HEALTH_TIMEOUT", ValueType.positiveDuration(), HealthSettings.DEFAULT_TIMEOUT, RESTART,
            "The longest one active check may take; at most the interval.", config -> config.proxy().health().timeout());

    public static final Setting<Integer> BODY_MAX_BYTES = Setting.of("proxy.body-max-bytes",
            "INSIKA_ROUTER_BODY_MAX_BYTES", ValueType.size(1, "bytes"), 262_144, LIVE,
            "How much of a body may be read looking for the key; never a limit on what is forwarded.",
            c -> c.proxy().bodyMaxBytes());
    public static final Setting<Duration> BACKEND_TIMEOUT = Setting.of("proxy.backend-timeout",
            "INSIKA_ROUTER_BACKEND_TIMEOUT", ValueType.positiveDuration(), Duration.ofSeconds(10), LIVE,
            "Connect and read-idle timeout towards a backend.", c -> c.proxy().backendTimeout());
    public static final Setting<Duration> CLIENT_BODY_TIMEOUT = Setting.of("proxy.client-body-timeout",
            "INSIKA_ROUTER_CLIENT_BODY_TIMEOUT", ValueType.positiveDuration(), ProxySettings.DEFAULT_CLIENT_BODY_TIMEOUT,
            LIVE, "The longest a client may pause while sending a request body.", c -> c.proxy().clientBodyTimeout());
    public static final Setting<Duration> CLIENT_SEND_TIMEOUT = Setting.of("proxy.client-send-timeout",
            "INSIKA_ROUTER_CLIENT_SEND_TIMEOUT", ValueType.positiveDuration(), ProxySettings.DEFAULT_CLIENT_SEND_TIMEOUT,
            LIVE, "The longest a client may leave its answer unread.", c -> c.proxy().clientSendTimeout());
    public static final Setting<Integer> CLIENT_BODY_MIN_RATE = Setting.of("proxy.client-body-min-rate",
            "INSIKA_ROUTER_CLIENT_BODY_MIN_RATE", ValueType.size(0, "bytes a second"),
            (int) ProxySettings.DEFAULT_CLIENT_BODY_MIN_RATE, LIVE, "Bytes a second a request body must average once it took longer than client-body-timeout; 0: no floor.",
            c -> (int) c.proxy().clientBodyMinRate());
    public static final Setting<Duration> STREAM_IDLE_TIMEOUT = Setting.of("proxy.stream-idle-timeout",
            "INSIKA_ROUTER_STREAM_IDLE_TIMEOUT", ValueType.durationOrZero(), ProxySettings.DEFAULT_STREAM_IDLE_TIMEOUT,
            LIVE, "The longest a backend may stay silent once an event stream began; `0s` for no limit.",
            c -> c.proxy().streamIdleTimeout());
    public static final Setting<TrustedProxies> TRUSTED_PROXIES = Setting.printed("proxy.trusted-proxies",
            "INSIKA_ROUTER_TRUSTED_PROXIES", ValueType.trustedProxies(), TrustedProxies.NONE, LIVE,
            "The peers whose forwarding headers (`X-Forwarded-*`, `Forwarded`, `X-Real-IP`...) are believed,"
                    + " comma-separated addresses or CIDR blocks.",
            config -> config.proxy().trustedProxies().isEmpty() ? "(none)" : config.proxy().trustedProxies().toString());
    public static final Setting<Integer> MAX_REQUESTS = Setting.of("proxy.max-requests", "INSIKA_ROUTER_MAX_REQUESTS",
            CONNECTIONS, ProxySettings.DEFAULT_MAX_REQUESTS, RESTART,
            "Proxied requests in flight at once; past it, the retry envelope.", c -> c.proxy().maxRequests());
    public static final Setting<Integer> MAX_TUNNELS = Setting.printed("proxy.max-tunnels", "INSIKA_ROUTER_MAX_TUNNELS",
            ValueType.integer(0, 1_000_000, "a whole number from 0 to 1000000"), 0, RESTART,
            "WebSocket tunnels open at once through the router; past it, the retry envelope. 0: as many as the heap"
                    + " allows.",
            c -> c.proxy().maxTunnels() > 0 ? Integer.toString(c.proxy().maxTunnels())
                    : "0 (" + OpenLimit.tunnelsForHeap(Runtime.getRuntime().maxMemory()) + " for this heap)");
    public static final Setting<Integer> PEEK_BUDGET = Setting.of("proxy.peek-budget", "INSIKA_ROUTER_PEEK_BUDGET",
            ValueType.size(0, "bytes"),
            ProxySettings.DEFAULT_PEEK_BUDGET, RESTART, "Bytes all key peeks may hold together beyond 8 KiB each.",
            c -> c.proxy().peekBudget());
    public static final Setting<Boolean> ACCESS_LOG = Setting.of("proxy.access-log", "INSIKA_ROUTER_ACCESS_LOG",
            ValueType.bool(), false, LIVE, "`true` logs one line per proxied request.", c -> c.proxy().accessLog().isPresent());
    public static final Setting<LogFormat> LOG_FORMAT = Setting.of("logging.format", "INSIKA_ROUTER_LOG_FORMAT",
            ValueType.logFormat(), LogFormat.TEXT, RESTART,
            "`json` writes the router's log and the access log as one JSON object per line.", RouterConfig::logFormat);
    public static final Setting<LogLevel> LOG_LEVEL = Setting.of("logging.level", "INSIKA_ROUTER_LOG_LEVEL",
            ValueType.logLevel(), LogLevel.INFO, LIVE,
            "The router's own log from this level up: `debug`, `info`, `warn` or `error`.", RouterConfig::logLevel);

    public static final Setting<Duration> RELOAD_WATCH_INTERVAL = Setting.of("reload.watch-interval",
            "INSIKA_ROUTER_RELOAD_WATCH_INTERVAL", ValueType.durationOrZero(), Duration.ZERO, RESTART,
            "How often the file is checked for a change, then reloaded as on SIGHUP; `0s` reloads on SIGHUP only.",
            RouterConfig::reloadWatchInterval);

    public static final Setting<String> SESSION_SECRET_FILE = Setting.printed("sessions.secret-file",
            "INSIKA_ROUTER_SESSION_SECRET_FILE", ValueType.path(), "", RESTART,
            "A file of 32 bytes or more, the same on every replica: seals the session ids backends mint on routes"
                    + " that `learn` their key.",
            // by fingerprint, never the path alone: a file rewritten in place is another secret
            config -> config.proxy().sessions().fingerprint().map(f -> "secret " + f).orElse("(none)"));
    public static final Setting<String> SESSION_PREVIOUS_SECRET_FILE = Setting.printed(
            "sessions.previous-secret-file", NO_VARIABLE, ValueType.path(), "", RESTART,
            "The secret before the current one: it still opens the seals it made, and seals nothing.",
            config -> config.proxy().sessions().previousFingerprint().map(f -> "secret " + f).orElse("(none)"));

    public static final StructuredKey ROUTES = new StructuredKey("routes", Optional.empty(), "the seed's table", LIVE,
            "Which requests carry a session key, and where; see below.",
            config -> config.routes().size() + " route(s)", RouterConfig::routes, Settings::routesWhole);

    /** In the order the loader reads them, which is the order {@code check} prints them. */
    private static final List<ConfigKey> ALL = List.of(HOST, PORT, ADMIN_HOST, ADMIN_PORT, SHUTDOWN_GRACE, STOP_DELAY,
            MAX_CONNECTIONS, HEAD_TIMEOUT, IDLE_TIMEOUT, LEAN_HTTP1, HTTP2, HTTP2_MAX_CONCURRENT_STREAMS,
            HTTP2_MAX_HEADER_LIST_SIZE, HTTP2_INITIAL_WINDOW_SIZE, TLS_CERTIFICATE, TLS_PRIVATE_KEY, TLS_CLIENT_CA,
            TLS_ADMIN, STRATEGY, STRATEGY_OPTIONS, STRATEGY_CHANGE_ON_RELOAD,
            BACKEND_MAX_REQUESTS,
            BACKEND_MAX_TUNNELS, BACKENDS_STATIC, DNS_NAME, DNS_PORT, DNS_INTERVAL, DNS_RESOLVER, DNS_TIMEOUT, DNS_ID,
            DNS_PUBLIC_ADDRESS, HEALTH_DOWN_TIME, HEALTH_PATH, HEALTH_INTERVAL, HEALTH_TIMEOUT, BODY_MAX_BYTES,
            BACKEND_TIMEOUT, CLIENT_BODY_TIMEOUT, CLIENT_SEND_TIMEOUT, CLIENT_BODY_MIN_RATE,
            STREAM_IDLE_TIMEOUT, TRUSTED_PROXIES, MAX_REQUESTS,
            MAX_TUNNELS, PEEK_BUDGET,
            ACCESS_LOG, LOG_FORMAT, LOG_LEVEL, RELOAD_WATCH_INTERVAL, ROUTES, SESSION_SECRET_FILE,
            SESSION_PREVIOUS_SECRET_FILE);

    private static final Map<String, ConfigKey> BY_KEY = ALL.stream()
            .collect(Collectors.toUnmodifiableMap(ConfigKey::key, Function.identity()));

    private Settings() {
    }

    /** @return every key, in the order the loader reads them */
    public static List<ConfigKey> all() {
        return ALL;
    }

    /**
     * @param key a dotted YAML path, such as {@code server.port}
     * @return its row, if the table has one
     */
    public static Optional<ConfigKey> byKey(String key) {
        return Optional.ofNullable(BY_KEY.get(key));
    }

    private static <T> Setting<T> dns(String key, String variable, ValueType<T> type, T fallback, String doc,
                                      Function<DnsBackends, T> value) {
        return dnsPrinted(key, variable, type, fallback, doc, dns -> type.print(value.apply(dns)));
    }

    // Restart-only, and empty in static mode: so a change of mode is a change of backends.dns.name.
    private static <T> Setting<T> dnsPrinted(String key, String variable, ValueType<T> type, T fallback, String doc,
                                             Function<DnsBackends, String> printed) {
        return Setting.printed(key, variable, type, fallback, RESTART, doc,
                config -> config.backends() instanceof DnsBackends dns ? printed.apply(dns) : "");
    }

    private static String strategyOptions(RouterConfig config) {
        return config.strategy().options().names().stream()
                .map(name -> name + "=" + config.strategy().options().get(name).orElse(""))
                .collect(Collectors.joining(", ", "{", "}"));
    }

    private static String strategyOptionsWhole(RouterConfig config) {
        return new TreeSet<>(config.strategy().options().names()).stream()
                .map(name -> name + "=" + config.strategy().options().get(name).orElse(""))
                .collect(Collectors.joining(", ", "{", "}"));
    }

    // in id order, every field the pool and the redirects use
    private static String staticBackendsWhole(RouterConfig config) {
        if (!(config.backends() instanceof StaticBackends list)) {
            return "";
        }
        return list.backends().stream().sorted(Comparator.comparing(Backend::id))
                .map(backend -> backend.id() + " " + backend.uri() + " weight " + backend.weight()
                        + backend.publicAddress().map(address -> " public " + address).orElse(""))
                .collect(Collectors.joining(", "));
    }

    // in table order (the first match wins), sets sorted
    private static String routesWhole(RouterConfig config) {
        return config.routes().stream().map(route -> new TreeSet<>(route.methods()) + " " + route.path() + " "
                        + route.keys().stream().map(key -> key.type() + new TreeSet<>(key.options().names()).stream()
                                .map(name -> name + "=" + key.options().get(name).orElse(""))
                                .collect(Collectors.joining(",", "(", ")")))
                        .collect(Collectors.joining(" or ", "[", "]"))
                        + " " + route.onMiss().mode() + " " + new TreeSet<>(route.onMiss().origins())
                        + " " + route.onMiss().maxRedirects()
                        + route.learn().map(learn -> " learn " + learn).orElse(""))
                .collect(Collectors.joining("; "));
    }

    private static String staticBackends(RouterConfig config) {
        if (!(config.backends() instanceof StaticBackends list)) {
            return "";
        }
        return list.backends().isEmpty() ? "none"
                : list.backends().stream().map(Object::toString).collect(Collectors.joining(", "));
    }

    // the default, then each static backend that has its own: "16; 10.0.0.3:9292 0"
    private static String slots(RouterConfig config, ToIntFunction<BackendLimits> which) {
        StringBuilder text = new StringBuilder(limit(which.applyAsInt(config.proxy().capacity().defaults())));
        new TreeMap<>(config.proxy().capacity().perBackend()).forEach((id, limits) ->
                text.append("; ").append(id).append(' ').append(limit(which.applyAsInt(limits))));
        return text.toString();
    }

    private static String limit(int slots) {
        return slots == 0 ? "0 (no limit)" : String.valueOf(slots);
    }
}
