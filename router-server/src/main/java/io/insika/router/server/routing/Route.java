package io.insika.router.server.routing;

import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;

import io.insika.router.api.KeyExtractor;
import io.insika.router.api.PathTemplate;

/**
 * A route ready to serve: its template parsed and its extractors built.
 *
 * @param methods    upper-case methods it matches; empty matches any
 * @param template   the path template
 * @param extractors tried in order; the first key found wins
 * @param keyTypes   each extractor's configured type, in the same order: how a failure names it
 * @param needsBody  whether any extractor reads the body, so the body is peeked at all
 * @param onMiss     proxy keyed requests to their owner, or redirect the client there
 * @param learn      the carrier of a key the backend mints, when the route has no extractors
 */
public record Route(Set<String> methods, PathTemplate template, List<KeyExtractor> extractors, List<String> keyTypes,
                    boolean needsBody, MissPolicy onMiss, Optional<LearnSpec> learn) {

    public Route {
        methods = Set.copyOf(methods);
        extractors = List.copyOf(extractors);
        keyTypes = List.copyOf(keyTypes);
        if (keyTypes.size() != extractors.size()) {
            throw new IllegalArgumentException("keyTypes: " + keyTypes + " (expected: one per extractor, "
                    + extractors.size() + ")");
        }
        Objects.requireNonNull(learn, "learn");
    }

    boolean acceptsMethod(String method) {
        return methods.isEmpty() || methods.contains(method);
    }

    @Override
    public String toString() {
        return (methods.isEmpty() ? "*" : String.join(",", new java.util.TreeSet<>(methods))) + " " + template
                + learn.map(spec -> " (" + spec + ")").orElse("");
    }
}
