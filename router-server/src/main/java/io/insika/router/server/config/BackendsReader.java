package io.insika.router.server.config;

import java.net.InetSocketAddress;
import java.net.URI;
import java.net.URISyntaxException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

import io.helidon.config.Config;
import io.insika.router.api.Backend;
import io.insika.router.server.backends.BackendCapacity;
import io.insika.router.server.backends.BackendLimits;

import static io.insika.router.server.config.EnvironmentOverrides.BACKENDS;
import static io.insika.router.server.config.EnvironmentOverrides.BACKENDS_DNS;
import static io.insika.router.server.config.EnvironmentOverrides.BACKEND_MAX_REQUESTS;
import static io.insika.router.server.config.EnvironmentOverrides.BACKEND_MAX_TUNNELS;
import static io.insika.router.server.config.EnvironmentOverrides.BACKEND_PORT;
import static io.insika.router.server.config.EnvironmentOverrides.DNS_INTERVAL;

/**
 * Reads {@code backends}: a static list or a DNS name. An environment variable that selects a
 * mode replaces YAML backends of the other mode entirely; within one mode each variable
 * overrides only its own key.
 */
final class BackendsReader {

    private static final String URL_FORM = "http(s)://host:port";
    private static final ValueType<Integer> WEIGHT = ValueType.integer(1, 1000, "a whole number from 1 to 1000");
    private static final ValueType<String> PLACEMENT_ID = new ValueType<>(
            "1 to 255 visible ASCII characters, no space: the id the cluster knows this backend by",
            text -> Backend.isPlacementId(text) ? Optional.of(text) : Optional.empty());
    // A template is checked on a sample address: what it makes must be an id.
    private static final ValueType<AddressTemplate> ID_TEMPLATE = new ValueType<>(AddressTemplate.EXPECTED,
            text -> AddressTemplate.parse(text).filter(t -> Backend.isPlacementId(t.apply("ffff:ffff:ffff:ffff:ffff:ffff:ffff:ffff", 65535))));
    private static final String PUBLIC_FORM = "http(s)://host[:port][/path], the address clients reach this"
            + " backend at (never its internal one), such as https://host-3.example.com";
    private static final ValueType<URI> PUBLIC_ADDRESS = new ValueType<>(PUBLIC_FORM, BackendsReader::publicAddress);
    private static final ValueType<AddressTemplate> PUBLIC_TEMPLATE = new ValueType<>(
            AddressTemplate.EXPECTED.replace("actor-host@{ip}:{port}", "https://{ip-dashed}.actors.example.com"),
            text -> AddressTemplate.parse(text).filter(t -> publicAddress(t.apply("10.42.0.7", 9292)).isPresent()));
    private static final ValueType<Integer> SLOTS = ValueType.integer(0, 1_000_000,
            "a whole number from 0 (no limit) to 1000000");

    private final SettingReader reader;
    private final Map<String, BackendLimits> perBackend = new HashMap<>();
    private BackendLimits defaults = BackendLimits.NONE;

    BackendsReader(SettingReader reader) {
        this.reader = reader;
    }

    /** Each backend's slots: the defaults, or a static entry's own; call after {@link #read()}. */
    BackendCapacity capacity() {
        return new BackendCapacity(defaults, perBackend);
    }

    BackendSource read() {
        defaults = new BackendLimits(
                reader.read("backends.max-requests", BACKEND_MAX_REQUESTS, 0, SLOTS),
                reader.read("backends.max-tunnels", BACKEND_MAX_TUNNELS, 0, SLOTS));
        EnvironmentOverrides environment = reader.environment();
        Config yaml = reader.root().get("backends");
        boolean yamlStatic = yaml.get("static").exists();
        boolean yamlDns = yaml.get("dns").exists();
        if (yaml.exists() && yaml.type() != Config.Type.OBJECT) {
            reader.problem("backends", SettingReader.describe(yaml), "a mapping with either static or dns");
        }
        if (environment.isSet(BACKENDS) && environment.isSet(BACKENDS_DNS)) {
            reader.problem(BACKENDS_DNS, environment.get(BACKENDS_DNS).orElseThrow(),
                    "unset when " + BACKENDS + " is set: choose static or DNS mode");
        }
        if (environment.isSet(BACKENDS)) {
            return staticMode(fromEnvironment(environment.get(BACKENDS).orElseThrow()), ValueSource.ENVIRONMENT);
        }
        if (environment.isSet(BACKENDS_DNS)) {
            return dnsMode();
        }
        if (yamlStatic && yamlDns) {
            reader.problem("backends", "static, dns", "exactly one of static or dns");
            return new StaticBackends(List.of());
        }
        if (yamlDns) {
            return dnsMode();
        }
        if (yamlStatic) {
            return staticMode(fromYaml(yaml.get("static")), reader.fileSource());
        }
        return staticMode(List.of(), ValueSource.DEFAULT);
    }

    private StaticBackends staticMode(List<Backend> backends, ValueSource source) {
        reader.origin("backends.static", source);
        for (String variable : List.of(BACKEND_PORT, DNS_INTERVAL)) {
            reader.environment().get(variable).ifPresent(value -> reader.problem(variable, value,
                    "unset in static mode; it applies only with " + BACKENDS_DNS + " or backends.dns"));
        }
        return new StaticBackends(backends);
    }

    private DnsBackends dnsMode() {
        String name = reader.read("backends.dns.name", BACKENDS_DNS, "", ValueType.dnsName());
        if (reader.origins().get("backends.dns.name") == ValueSource.DEFAULT) {
            reader.problem("backends.dns.name", "", ValueType.dnsName().expected());
        }
        int port = reader.read("backends.dns.port", BACKEND_PORT, 0, ValueType.backendPort());
        if (reader.origins().get("backends.dns.port") == ValueSource.DEFAULT) {
            reader.problem(reader.environment().isSet(BACKENDS_DNS) ? BACKEND_PORT : "backends.dns.port", "",
                    "a port from 1 to 65535: DNS mode needs the port every resolved backend listens on");
        }
        Duration interval = reader.read("backends.dns.interval", DNS_INTERVAL, DnsBackends.DEFAULT_INTERVAL,
                ValueType.positiveDuration());
        Optional<InetSocketAddress> resolver = reader.scalar("backends.dns.resolver", "backends.dns.resolver")
                .flatMap(text -> reader.parse("backends.dns.resolver", text, ValueType.resolverAddress()));
        reader.origin("backends.dns.resolver", resolver.isPresent() ? reader.fileSource() : ValueSource.DEFAULT);
        Duration timeout = reader.read("backends.dns.timeout", null, DnsBackends.DEFAULT_TIMEOUT,
                ValueType.positiveDuration());
        AddressTemplate id = reader.read("backends.dns.id", null, AddressTemplate.DEFAULT_ID, ID_TEMPLATE);
        Optional<AddressTemplate> publicAddress = reader.scalar("backends.dns.public-address", "backends.dns.public-address")
                .flatMap(text -> reader.parse("backends.dns.public-address", text, PUBLIC_TEMPLATE));
        reader.origin("backends.dns.public-address", publicAddress.isPresent() ? reader.fileSource() : ValueSource.DEFAULT);
        return new DnsBackends(name, port, interval, resolver, timeout, id, publicAddress);
    }

    private List<Backend> fromEnvironment(String text) {
        List<Backend> backends = new ArrayList<>();
        Map<String, String> seen = new HashMap<>();
        String[] urls = text.split(",", -1);
        for (int i = 0; i < urls.length; i++) {
            add(BACKENDS + "[" + i + "]", urls[i].trim(), Backend.DEFAULT_WEIGHT, Optional.empty(), backends, seen);
        }
        return backends;
    }

    private List<Backend> fromYaml(Config list) {
        if (list.type() != Config.Type.LIST) {
            reader.problem("backends.static", SettingReader.describe(list), "a list of " + URL_FORM + " URLs");
            return List.of();
        }
        List<Backend> backends = new ArrayList<>();
        Map<String, String> seen = new HashMap<>();
        List<Config> entries = list.asNodeList().orElse(List.of());
        for (int i = 0; i < entries.size(); i++) {
            Config entry = entries.get(i);
            String label = "backends.static[" + i + "]";
            if (entry.type() == Config.Type.OBJECT) {
                Optional<String> url = reader.scalar(entry.get("url"), label + ".url");
                int weight = reader.scalar(entry.get("weight"), label + ".weight")
                        .flatMap(text -> reader.parse(label + ".weight", text, WEIGHT))
                        .orElse(Backend.DEFAULT_WEIGHT);
                Optional<String> id = reader.scalar(entry.get("id"), label + ".id")
                        .flatMap(text -> reader.parse(label + ".id", text, PLACEMENT_ID));
                Optional<URI> publicAddress = reader.scalar(entry.get("public-address"), label + ".public-address")
                        .flatMap(text -> reader.parse(label + ".public-address", text, PUBLIC_ADDRESS));
                Optional<Integer> maxRequests = slots(entry, label, "max-requests");
                Optional<Integer> maxTunnels = slots(entry, label, "max-tunnels");
                Backend backend = add(label + ".url", url.orElse(""), weight, id, backends, seen);
                if (backend != null && publicAddress.isPresent()) {
                    backends.set(backends.size() - 1, backend.withPublicAddress(publicAddress.get()));
                }
                if (backend != null && (maxRequests.isPresent() || maxTunnels.isPresent())) {
                    perBackend.put(backend.id(), new BackendLimits(maxRequests.orElse(defaults.maxRequests()),
                            maxTunnels.orElse(defaults.maxTunnels())));
                }
            } else {
                add(label, reader.scalar(entry, label).orElse(""), Backend.DEFAULT_WEIGHT, Optional.empty(), backends,
                        seen);
            }
        }
        return backends;
    }

    /** An absolute http(s) URI with a host, and no query, fragment or user info. */
    static Optional<URI> publicAddress(String text) {
        try {
            URI uri = new URI(text.trim());
            String scheme = uri.getScheme() == null ? "" : uri.getScheme().toLowerCase(java.util.Locale.ROOT);
            boolean valid = (scheme.equals("http") || scheme.equals("https")) && uri.getHost() != null
                    && uri.getRawQuery() == null && uri.getRawFragment() == null && uri.getRawUserInfo() == null;
            return valid ? Optional.of(uri) : Optional.empty();
        } catch (URISyntaxException e) {
            return Optional.empty();
        }
    }

    private Optional<Integer> slots(Config entry, String label, String key) {
        return reader.scalar(entry.get(key), label + "." + key)
                .flatMap(text -> reader.parse(label + "." + key, text, SLOTS));
    }

    /** @return the backend added, or {@code null} when the entry was a problem */
    private Backend add(String label, String url, int weight, Optional<String> id, List<Backend> backends,
                        Map<String, String> seen) {
        Backend backend;
        try {
            backend = Backend.of(new URI(url), weight);
        } catch (URISyntaxException | IllegalArgumentException e) {
            reader.problem(label, url, URL_FORM);
            return null;
        }
        String address = Backend.canonicalId(backend.uri());
        String first = seen.putIfAbsent("address " + address, label);
        if (first != null) {
            reader.problem(label, url, "each backend once; " + address + " is also at " + first);
            return null;
        }
        if (id.isPresent()) {
            backend = backend.withId(id.get());
        }
        // ids are what strategies hash: two backends under one id would be one backend
        String sameId = seen.putIfAbsent("id " + backend.id(), label);
        if (sameId != null) {
            reader.problem(id.isPresent() ? label + ".id" : label, backend.id(),
                    "an id no other backend has; " + sameId + " has it too");
            return null;
        }
        backends.add(backend);
        return backend;
    }
}
