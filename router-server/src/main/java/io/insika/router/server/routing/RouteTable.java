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
 * ({@link PathNormalizer}) decides how its key is found. A request no route matches has no key.
 * Immutable.
 */
public final class RouteTable {

    private final List<Route> routes;

    private RouteTable(List<Route> routes) {
        this.routes = List.copyOf(routes);
    }

    /**
     * Builds the routes, making each extractor through its provider.
     *
     * @param specs    the configured routes
     * @param registry where extractor types are looked up
     * @return the table
     * @throws PluginConfigException if a path is malformed or not in normal form, a type
     *                               unknown, or an extractor's options invalid; the message
     *                               names the route
     */
    public static RouteTable build(List<RouteSpec> specs, PluginRegistry registry) {
        List<Route> routes = new ArrayList<>();
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
            List<KeyExtractor> extractors = new ArrayList<>();
            for (int k = 0; k < spec.keys().size(); k++) {
                ExtractorSpec key = spec.keys().get(k);
                KeyExtractorProvider provider = registry.extractor(key.type()).orElseThrow(() ->
                        new PluginConfigException(where + ".keys[" + extractors.size() + "].type: [" + key.type()
                                + "] (known: " + String.join(", ", registry.extractorTypes()) + ")"));
                extractors.add(provider.create(key.options()));
            }
            boolean needsBody = extractors.stream().anyMatch(KeyExtractor::needsBody);
            routes.add(new Route(spec.methods(), template, extractors, needsBody, spec.onMiss(), spec.learn()));
        }
        return new RouteTable(routes);
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
}
