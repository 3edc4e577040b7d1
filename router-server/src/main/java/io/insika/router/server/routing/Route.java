package io.insika.router.server.routing;

import java.util.List;
import java.util.Set;

import io.insika.router.api.KeyExtractor;
import io.insika.router.api.PathTemplate;

/**
 * A route ready to serve: its template parsed and its extractors built.
 *
 * @param methods    upper-case methods it matches; empty matches any
 * @param template   the path template
 * @param extractors tried in order; the first key found wins
 * @param needsBody  whether any extractor reads the body, so the body is peeked at all
 * @param onMiss     proxy keyed requests to their owner, or redirect the client there
 */
public record Route(Set<String> methods, PathTemplate template, List<KeyExtractor> extractors, boolean needsBody,
                    MissPolicy onMiss) {

    public Route {
        methods = Set.copyOf(methods);
        extractors = List.copyOf(extractors);
    }

    boolean acceptsMethod(String method) {
        return methods.isEmpty() || methods.contains(method);
    }

    @Override
    public String toString() {
        return (methods.isEmpty() ? "*" : String.join(",", new java.util.TreeSet<>(methods))) + " " + template;
    }
}
