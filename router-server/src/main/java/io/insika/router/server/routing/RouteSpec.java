package io.insika.router.server.routing;

import java.util.List;
import java.util.Objects;
import java.util.Set;

/**
 * One route as configured: which requests it matches and how their key is found.
 *
 * @param methods upper-case methods it matches; empty matches any method
 * @param path    a {@link io.insika.router.api.PathTemplate} text, such as {@code /channels/{id}/messages}
 * @param keys    the key extractors, tried in order until one finds a key
 * @param onMiss  proxy keyed requests to their owner, or redirect the client there
 */
public record RouteSpec(Set<String> methods, String path, List<ExtractorSpec> keys, MissPolicy onMiss) {

    public RouteSpec {
        methods = Set.copyOf(Objects.requireNonNull(methods, "methods"));
        Objects.requireNonNull(path, "path");
        keys = List.copyOf(Objects.requireNonNull(keys, "keys"));
        Objects.requireNonNull(onMiss, "onMiss");
    }

    /** A route that proxies every keyed request. */
    public RouteSpec(Set<String> methods, String path, List<ExtractorSpec> keys) {
        this(methods, path, keys, MissPolicy.PROXY);
    }
}
