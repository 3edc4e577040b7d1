package io.insika.router.server.config;

import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import java.util.regex.Pattern;

import io.insika.router.api.PluginOptions;
import io.insika.router.server.routing.DefaultRoutes;
import io.insika.router.server.routing.ExtractorSpec;
import io.insika.router.server.routing.LearnSpec;
import io.insika.router.server.routing.MissPolicy;
import io.insika.router.server.routing.RouteSpec;
import io.insika.router.server.upstream.HttpSyntax;

/**
 * Reads {@code routes} into route specs; the seed's table when the YAML has none. Every key of a
 * {@code keys[k]} entry but {@code type} becomes an extractor option, nested keys dotted, with
 * the path {@code routes[i].keys[k]} so the plugin's messages name the right line.
 */
final class RoutesReader {

    private static final Pattern METHOD = Pattern.compile("[A-Za-z]+");
    private static final ValueType<MissPolicy.Mode> ON_MISS = new ValueType<>("proxy, redirect or auto",
            text -> MissPolicy.Mode.of(text.toLowerCase(Locale.ROOT)));
    private static final ValueType<Integer> MAX_REDIRECTS = ValueType.integer(0, 10, "a whole number from 0 to 10");
    // An Origin header's form: scheme://host[:port], nothing after
    private static final Pattern ORIGIN_FORM = Pattern.compile("https?://[A-Za-z0-9.-]+(:[0-9]{1,5})?|https?://\\[[0-9A-Fa-f:.]+](:[0-9]{1,5})?");
    private static final ValueType<String> ORIGIN = new ValueType<>(
            "an origin as browsers send it: scheme://host[:port], such as https://app.example.com",
            text -> ORIGIN_FORM.matcher(text).matches() ? Optional.of(text.toLowerCase(Locale.ROOT)) : Optional.empty());

    private static final ValueType<Integer> UNKNOWN_OWNER_STATUS = ValueType.integer(400, 599,
            "a status from 400 to 599; 404 is what MCP clients take as \"initialize again\"");
    private static final ValueType<LearnSpec.BadSeal> BAD_SEAL = new ValueType<>("reject or no-key",
            text -> LearnSpec.BadSeal.of(text.toLowerCase(Locale.ROOT)));
    // Fields a learned key cannot ride in: the router frames, routes or vouches for them, or
    // they describe one connection; a cookie is learned with cookie:, not as a header.
    private static final Set<String> NOT_CARRIERS = Set.of("host", "content-length", "transfer-encoding", "connection",
            "keep-alive", "proxy-connection", "te", "trailer", "upgrade", "expect", "proxy-authorization",
            "x-forwarded-for", "x-forwarded-proto", "x-forwarded-host", "cookie", "set-cookie");

    private final SettingReader reader;
    // every well-formed key entry, kept even when its route is dropped, so its type is checked in the same run
    private final List<ExtractorSpec> extractors = new ArrayList<>();
    private boolean whole = true;

    RoutesReader(SettingReader reader) {
        this.reader = reader;
    }

    /** Every key entry read with a type, its route valid or not: each names its place as its options' path. */
    List<ExtractorSpec> extractors() {
        return List.copyOf(extractors);
    }

    /** Whether every entry became a route, so {@code routes[i]} of the list read is the file's. */
    boolean whole() {
        return whole;
    }

    List<RouteSpec> read() {
        YamlNode routes = reader.root().get("routes");
        if (!routes.exists()) {
            reader.origin(Settings.ROUTES.key(), ValueSource.DEFAULT);
            return DefaultRoutes.specs();
        }
        reader.origin(Settings.ROUTES.key(), reader.fileSource());
        if (routes.type() != YamlNode.Type.LIST) {
            reader.problem("routes", SettingReader.describe(routes), "a list of routes, each with path and keys");
            whole = false;
            return List.of();
        }
        List<RouteSpec> specs = new ArrayList<>();
        List<YamlNode> entries = routes.children();
        for (int i = 0; i < entries.size(); i++) {
            route(entries.get(i), "routes[" + i + "]").ifPresent(specs::add);
        }
        whole = specs.size() == entries.size();
        return specs;
    }

    private Optional<RouteSpec> route(YamlNode entry, String label) {
        if (entry.type() != YamlNode.Type.OBJECT) {
            reader.problem(label, SettingReader.describe(entry), "a mapping with methods, path and keys");
            return Optional.empty();
        }
        Set<String> methods = methods(entry.get("methods"), label + ".methods");
        YamlNode pathNode = entry.get("path");
        Optional<String> path = reader.scalar(pathNode, label + ".path").filter(p -> !p.isBlank());
        if (path.isEmpty() && (!pathNode.exists() || pathNode.type() == YamlNode.Type.VALUE)) {
            reader.problem(label + ".path", "", "a path template starting with /, such as /channels/{id}/messages");
        }
        if (entry.get("learn").exists()) {
            Optional<LearnSpec> learn = learn(entry, label);
            return path.isEmpty() || learn.isEmpty() ? Optional.empty()
                    : Optional.of(RouteSpec.learning(methods, path.get().trim(), learn.get()));
        }
        List<ExtractorSpec> keys = keys(entry.get("keys"), label);
        MissPolicy onMiss = onMiss(entry, label);
        if (path.isEmpty() || keys.isEmpty()) {
            return Optional.empty();
        }
        return Optional.of(new RouteSpec(methods, path.get().trim(), keys, onMiss));
    }

    // learn: {header: NAME} or {cookie: NAME}, with unknown-owner-status and bad-seal; the key is
    // the backend's, so the route has no keys and never redirects (the owner would see the seal)
    private Optional<LearnSpec> learn(YamlNode entry, String routeLabel) {
        String label = routeLabel + ".learn";
        for (String other : List.of("keys", "on-miss", "redirect-origins", "max-redirects")) {
            if (entry.get(other).exists()) {
                reader.problem(routeLabel + "." + other, SettingReader.describe(entry.get(other)),
                        "absent on a route that learns its key from the backend: learn and keys exclude each other,"
                                + " and such a route always proxies");
            }
        }
        YamlNode node = entry.get("learn");
        if (node.type() != YamlNode.Type.OBJECT) {
            reader.problem(label, SettingReader.describe(node), "a mapping such as {header: Mcp-Session-Id} or"
                    + " {cookie: SESSIONID}");
            return Optional.empty();
        }
        Optional<String> header = reader.scalar(node.get("header"), label + ".header").map(String::strip);
        Optional<String> cookie = reader.scalar(node.get("cookie"), label + ".cookie").map(String::strip);
        int status = reader.scalar(node.get("unknown-owner-status"), label + ".unknown-owner-status")
                .flatMap(text -> reader.parse(label + ".unknown-owner-status", text.strip(), UNKNOWN_OWNER_STATUS))
                .orElse(LearnSpec.DEFAULT_UNKNOWN_OWNER_STATUS);
        LearnSpec.BadSeal badSeal = reader.scalar(node.get("bad-seal"), label + ".bad-seal")
                .flatMap(text -> reader.parse(label + ".bad-seal", text.strip(), BAD_SEAL))
                .orElse(LearnSpec.BadSeal.REJECT);
        if (header.isPresent() == cookie.isPresent()) {
            reader.problem(label, header.isPresent() ? "header and cookie" : "neither header nor cookie",
                    "one carrier: header: NAME (such as Mcp-Session-Id) or cookie: NAME");
            return Optional.empty();
        }
        String name = header.orElseGet(cookie::get);
        String nameLabel = label + (header.isPresent() ? ".header" : ".cookie");
        if (!HttpSyntax.isToken(name)) {
            reader.problem(nameLabel, name, "a " + (header.isPresent() ? "header" : "cookie") + " name: letters,"
                    + " digits and !#$%&'*+-.^_`|~");
            return Optional.empty();
        }
        if (header.isPresent() && NOT_CARRIERS.contains(name.toLowerCase(Locale.ROOT))) {
            reader.problem(nameLabel, name, "a header the router neither frames, routes nor vouches for, such as"
                    + " Mcp-Session-Id (a session cookie: learn: {cookie: NAME})");
            return Optional.empty();
        }
        return Optional.of(new LearnSpec(header.isPresent() ? LearnSpec.Carrier.HEADER : LearnSpec.Carrier.COOKIE,
                name, status, badSeal));
    }

    // on-miss, with redirect-origins and max-redirects, which only redirecting routes may set
    private MissPolicy onMiss(YamlNode entry, String label) {
        MissPolicy.Mode mode = reader.scalar(entry.get("on-miss"), label + ".on-miss")
                .flatMap(text -> reader.parse(label + ".on-miss", text, ON_MISS))
                .orElse(MissPolicy.Mode.PROXY);
        Set<String> origins = new LinkedHashSet<>();
        YamlNode originsNode = entry.get("redirect-origins");
        if (originsNode.exists()) {
            if (mode != MissPolicy.Mode.AUTO) {
                reader.problem(label + ".redirect-origins", SettingReader.describe(originsNode),
                        "absent unless on-miss is auto: redirect redirects every origin, proxy none");
            }
            List<YamlNode> items = originsNode.type() == YamlNode.Type.LIST ? originsNode.children()
                    : List.of(originsNode);
            for (int i = 0; i < items.size(); i++) {
                String itemLabel = label + ".redirect-origins[" + i + "]";
                reader.scalar(items.get(i), itemLabel).flatMap(text -> reader.parse(itemLabel, text, ORIGIN))
                        .ifPresent(origins::add);
            }
        }
        int maxRedirects = reader.scalar(entry.get("max-redirects"), label + ".max-redirects")
                .flatMap(text -> reader.parse(label + ".max-redirects", text, MAX_REDIRECTS))
                .orElse(MissPolicy.DEFAULT_MAX_REDIRECTS);
        return new MissPolicy(mode, origins, maxRedirects);
    }

    private Set<String> methods(YamlNode node, String label) {
        List<YamlNode> items = switch (node.type()) {
            case LIST -> node.children();
            case VALUE -> List.of(node);
            default -> List.of();
        };
        Set<String> methods = new LinkedHashSet<>();
        for (int i = 0; i < items.size(); i++) {
            String itemLabel = node.type() == YamlNode.Type.LIST ? label + "[" + i + "]" : label;
            reader.scalar(items.get(i), itemLabel).ifPresent(method -> {
                if (METHOD.matcher(method.trim()).matches()) {
                    methods.add(method.trim().toUpperCase(Locale.ROOT));
                } else {
                    reader.problem(itemLabel, method, "an HTTP method such as POST");
                }
            });
        }
        if (node.type() == YamlNode.Type.OBJECT) {
            reader.problem(label, "a mapping", "a list of HTTP methods such as [POST]; absent for any method");
        }
        return methods;
    }

    private List<ExtractorSpec> keys(YamlNode node, String routeLabel) {
        String label = routeLabel + ".keys";
        List<YamlNode> entries = node.type() == YamlNode.Type.LIST ? node.children() : List.of();
        if (entries.isEmpty()) {
            reader.problem(label, node.exists() ? SettingReader.describe(node) : "",
                    "a list of one or more key extractors, such as [{type: json-field, field: user}]");
            return List.of();
        }
        List<ExtractorSpec> keys = new ArrayList<>();
        for (int k = 0; k < entries.size(); k++) {
            YamlNode entry = entries.get(k);
            String entryLabel = label + "[" + k + "]";
            if (entry.type() != YamlNode.Type.OBJECT) {
                reader.problem(entryLabel, SettingReader.describe(entry), "a mapping with type and the extractor's options");
                continue;
            }
            Optional<String> type = reader.scalar(entry.get("type"), entryLabel + ".type").filter(t -> !t.isBlank());
            if (type.isEmpty()) {
                reader.problem(entryLabel + ".type", "", "an extractor type, such as json-field");
                continue;
            }
            keys.add(new ExtractorSpec(type.get().trim(), PluginOptions.of(entryLabel, options(entry, "type"))));
            extractors.add(keys.getLast());
        }
        return keys.size() == entries.size() ? keys : List.of();
    }

    /** A plugin's options: every leaf under {@code node} but {@code skipped}, nested names dotted. */
    static Map<String, String> options(YamlNode node, String skipped) {
        Map<String, String> options = new TreeMap<>();
        for (YamlNode child : node.children()) {
            if (!child.name().equals(skipped)) {
                flatten(child, child.name(), options);
            }
        }
        return options;
    }

    private static void flatten(YamlNode node, String name, Map<String, String> into) {
        if (node.type() == YamlNode.Type.VALUE) {
            into.put(name, node.asString().orElse(""));
            return;
        }
        for (YamlNode child : node.children()) {
            flatten(child, name + "." + child.name(), into);
        }
    }
}
