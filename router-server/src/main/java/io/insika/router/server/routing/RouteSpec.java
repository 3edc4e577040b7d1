package io.insika.router.server.routing;

import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;

/**
 * One route as configured: which requests it matches and how their key is found.
 *
 * @param methods upper-case methods it matches; empty matches any method
 * @param path    a {@link io.insika.router.api.PathTemplate} text, such as {@code /channels/{id}/messages}
 * @param keys    the key extractors, tried in order until one finds a key; empty when it learns
 * @param onMiss  proxy keyed requests to their owner, or redirect the client there
 * @param learn   the carrier of a key the backend mints, instead of {@code keys}
 */
public record RouteSpec(Set<String> methods, String path, List<ExtractorSpec> keys, MissPolicy onMiss,
                        Optional<LearnSpec> learn) {

    public RouteSpec {
        methods = Set.copyOf(Objects.requireNonNull(methods, "methods"));
        Objects.requireNonNull(path, "path");
        keys = List.copyOf(Objects.requireNonNull(keys, "keys"));
        Objects.requireNonNull(onMiss, "onMiss");
        Objects.requireNonNull(learn, "learn");
        if (learn.isPresent() && (!keys.isEmpty() || onMiss.mode() != MissPolicy.Mode.PROXY)) {
            throw new IllegalArgumentException("a route that learns its key has no keys and proxies");
        }
    }

    /** A route whose keys the client chooses. */
    public RouteSpec(Set<String> methods, String path, List<ExtractorSpec> keys, MissPolicy onMiss) {
        this(methods, path, keys, onMiss, Optional.empty());
    }

    /** A route whose key the backend mints, in this carrier. */
    public static RouteSpec learning(Set<String> methods, String path, LearnSpec learn) {
        return new RouteSpec(methods, path, List.of(), MissPolicy.PROXY, Optional.of(learn));
    }

    /** A route that proxies every keyed request. */
    public RouteSpec(Set<String> methods, String path, List<ExtractorSpec> keys) {
        this(methods, path, keys, MissPolicy.PROXY);
    }
}
