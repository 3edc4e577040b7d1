package io.insika.router.strategies.extract.path;

import java.util.Optional;

import io.insika.router.api.KeyExtractor;
import io.insika.router.api.PathTemplate;
import io.insika.router.api.RequestView;

/**
 * The key is one path segment, percent-decoded: a parameter the route's own template captured,
 * or one captured by this extractor's template from the raw path. Blank is no key.
 */
final class PathSegmentKeyExtractor implements KeyExtractor {

    private final Optional<PathTemplate> template;
    private final String parameter;

    PathSegmentKeyExtractor(Optional<PathTemplate> template, String parameter) {
        this.template = template;
        this.parameter = parameter;
    }

    @Override
    public Optional<String> extract(RequestView request) {
        try {
            Optional<String> value = template.isPresent()
                    ? template.get().match(request.rawPath()).map(captured -> captured.get(parameter))
                    : request.pathParameter(parameter);
            return value.filter(segment -> !segment.isBlank());
        } catch (RuntimeException unreadable) {
            return Optional.empty();
        }
    }
}
