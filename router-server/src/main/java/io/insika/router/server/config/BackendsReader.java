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

import io.insika.router.api.Backend;
import io.insika.router.server.backends.BackendCapacity;
import io.insika.router.server.backends.BackendLimits;

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
    private static final String PUBLIC_FORM = "http(s)://host[:port][/path], the address clients reach this"
            + " backend at (never its internal one), such as https://host-3.example.com";
    private static final ValueType<URI> PUBLIC_ADDRESS = new ValueType<>(PUBLIC_FORM, BackendsReader::publicAddress);
    private static final ValueType<Integer> SLOTS = ValueType.slots();

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
        defaults = new BackendLimits(reader.read(Settings.BACKEND_MAX_REQUESTS), reader.read(Settings.BACKEND_MAX_TUNNELS));
        EnvironmentOverrides environment = reader.environment();
        YamlNode yaml = reader.root().get("backends");
        boolean yamlStatic = yaml.get("static").exists();
        boolean yamlDns = yaml.get("dns").exists();
        if (yaml.exists() && yaml.type() != YamlNode.Type.OBJECT) {
            reader.problem("backends", SettingReader.describe(yaml), "a mapping with either static or dns");
        }
        if (environment.isSet(Settings.BACKENDS_STATIC) && environment.isSet(Settings.DNS_NAME)) {
            reader.problem(variable(Settings.DNS_NAME), environment.get(Settings.DNS_NAME).orElseThrow(),
                    "unset when " + variable(Settings.BACKENDS_STATIC) + " is set: choose static or DNS mode");
        }
        if (environment.isSet(Settings.BACKENDS_STATIC)) {
            return staticMode(fromEnvironment(environment.get(Settings.BACKENDS_STATIC).orElseThrow()),
                    ValueSource.ENVIRONMENT);
        }
        if (environment.isSet(Settings.DNS_NAME)) {
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
        reader.origin(Settings.BACKENDS_STATIC.key(), source);
        for (Setting<?> dnsOnly : List.of(Settings.DNS_PORT, Settings.DNS_INTERVAL)) {
            reader.environment().get(dnsOnly).ifPresent(value -> reader.problem(variable(dnsOnly), value,
                    "unset in static mode; it applies only with " + variable(Settings.DNS_NAME) + " or backends.dns"));
        }
        return new StaticBackends(backends);
    }

    private DnsBackends dnsMode() {
        String name = reader.read(Settings.DNS_NAME);
        if (reader.origins().get(Settings.DNS_NAME.key()) == ValueSource.DEFAULT) {
            reader.problem(Settings.DNS_NAME.key(), "", ValueType.dnsName().expected());
        }
        int port = reader.read(Settings.DNS_PORT);
        if (reader.origins().get(Settings.DNS_PORT.key()) == ValueSource.DEFAULT) {
            reader.problem(reader.environment().isSet(Settings.DNS_NAME) ? variable(Settings.DNS_PORT) : Settings.DNS_PORT.key(),
                    "", "a port from 1 to 65535: DNS mode needs the port every resolved backend listens on");
        }
        Duration interval = reader.read(Settings.DNS_INTERVAL);
        Optional<InetSocketAddress> resolver = reader.read(Settings.DNS_RESOLVER);
        Duration timeout = reader.read(Settings.DNS_TIMEOUT);
        AddressTemplate id = reader.read(Settings.DNS_ID);
        Optional<AddressTemplate> publicAddress = reader.read(Settings.DNS_PUBLIC_ADDRESS);
        return new DnsBackends(name, port, interval, resolver, timeout, id, publicAddress);
    }

    private List<Backend> fromEnvironment(String text) {
        List<Backend> backends = new ArrayList<>();
        Map<String, String> seen = new HashMap<>();
        String[] urls = text.split(",", -1);
        for (int i = 0; i < urls.length; i++) {
            add(variable(Settings.BACKENDS_STATIC) + "[" + i + "]", urls[i].trim(), Backend.DEFAULT_WEIGHT, Optional.empty(), backends, seen);
        }
        return backends;
    }

    private List<Backend> fromYaml(YamlNode list) {
        if (list.type() != YamlNode.Type.LIST) {
            reader.problem(Settings.BACKENDS_STATIC.key(), SettingReader.describe(list), "a list of " + URL_FORM + " URLs");
            return List.of();
        }
        List<Backend> backends = new ArrayList<>();
        Map<String, String> seen = new HashMap<>();
        List<YamlNode> entries = list.children();
        for (int i = 0; i < entries.size(); i++) {
            YamlNode entry = entries.get(i);
            String label = "backends.static[" + i + "]";
            if (entry.type() == YamlNode.Type.OBJECT) {
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

    private static String variable(ConfigKey key) {
        return key.variable().orElseThrow();
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

    private Optional<Integer> slots(YamlNode entry, String label, String key) {
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
