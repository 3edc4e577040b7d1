package io.insika.router.server.routing;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;

import io.insika.router.api.KeyExtractor;
import io.insika.router.api.KeyExtractorProvider;
import io.insika.router.api.PathTemplate;
import io.insika.router.api.PluginConfigException;
import io.insika.router.server.plugin.PluginRegistry;

/**
 * The keyed routes, in the order configured; the first that matches a request's normal path
 * ({@link PathNormalizer}) decides how its key is found. A request no route matches has no key
 * of a route's. The carriers the routes learn are the table's, not their routes': every request
 * is read for each of them, whatever its path. Immutable.
 */
public final class RouteTable {

    private final List<Route> routes;
    private final List<LearnSpec> carriers;

    private RouteTable(List<Route> routes, List<LearnSpec> carriers) {
        this.routes = List.copyOf(routes);
        this.carriers = List.copyOf(carriers);
    }

    /**
     * Builds the routes, making each extractor through its provider.
     *
     * @param specs    the configured routes
     * @param registry where extractor types are looked up
     * @return the table
     * @throws PluginConfigException if a path is malformed or not in normal form, a type
     *                               unknown, an extractor's options invalid, or two routes learn
     *                               one carrier with different rules; the message names the route
     */
    public static RouteTable build(List<RouteSpec> specs, PluginRegistry registry) {
        List<Route> routes = new ArrayList<>();
        List<LearnSpec> carriers = new ArrayList<>();
        for (int i = 0; i < specs.size(); i++) {
            RouteSpec spec = specs.get(i);
            String where = "routes[" + i + "]";
            PathTemplate template;
            try {
                template = PathTemplate.parse(spec.path());
            } catch (IllegalArgumentException e) {
                throw new PluginConfigException(where + "." + e.getMessage());
            }
            String normal = PathNormalizer.normalize(spec.path());
            if (!normal.equals(spec.path())) {
                throw new PluginConfigException(where + ".path: [" + spec.path() + "] (expected: a path in the"
                        + " normal form requests are matched in, such as " + normal + ")");
            }
            if (spec.learn().isPresent()) {
                learnedCarrier(carriers, spec.learn().get(), where);
            }
            List<KeyExtractor> extractors = new ArrayList<>();
            for (int k = 0; k < spec.keys().size(); k++) {
                ExtractorSpec key = spec.keys().get(k);
                KeyExtractorProvider provider = registry.extractor(key.type()).orElseThrow(() ->
                        new PluginConfigException(where + ".keys[" + extractors.size() + "].type: [" + key.type()
                                + "] (known: " + String.join(", ", registry.extractorTypes()) + ")"));
                extractors.add(provider.create(key.options()));
            }
            boolean needsBody = extractors.stream().anyMatch(KeyExtractor::needsBody);
            List<String> types = spec.keys().stream().map(ExtractorSpec::type).toList();
            routes.add(new Route(spec.methods(), template, extractors, types, needsBody, spec.onMiss(), spec.learn()));
        }
        return new RouteTable(routes, carriers);
    }

    // A carrier is checked and sealed on every request, so it has one set of rules: a second
    // route may learn it again (its requests are then placed by it), saying the same of it.
    private static void learnedCarrier(List<LearnSpec> carriers, LearnSpec learn, String where) {
        for (LearnSpec known : carriers) {
            if (known.sameCarrier(learn)) {
                if (known.unknownOwnerStatus() != learn.unknownOwnerStatus() || known.badSeal() != learn.badSeal()) {
                    throw new PluginConfigException(where + ".learn: [" + learn.carrier().label() + " "
                            + learn.name() + ", unknown-owner-status: " + learn.unknownOwnerStatus() + ", bad-seal: "
                            + learn.badSeal().label() + "] (expected: the rules an earlier route gives the same"
                            + " carrier, unknown-owner-status: " + known.unknownOwnerStatus() + ", bad-seal: "
                            + known.badSeal().label() + "; a carrier is checked on every request, whatever its"
                            + " path)");
                }
                return;
            }
        }
        carriers.add(learn);
    }

    /**
     * The first route matching a request.
     *
     * @param method the request method
     * @param path   the request path in normal form ({@link PathNormalizer#normalize}), without query
     * @return the match, or empty if no route matches
     */
    public Optional<RouteMatch> match(String method, String path) {
        for (Route route : routes) {
            if (route.acceptsMethod(method)) {
                Optional<Map<String, String>> parameters = route.template().match(path);
                if (parameters.isPresent()) {
                    return Optional.of(new RouteMatch(route, parameters.get()));
                }
            }
        }
        return Optional.empty();
    }

    public List<Route> routes() {
        return routes;
    }

    /**
     * The carriers of the keys backends mint, one each however many routes learn it, in the
     * order the routes first name them.
     */
    public List<LearnSpec> learnedCarriers() {
        return carriers;
    }
}
