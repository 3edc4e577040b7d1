package io.insika.router.strategies.extract.query;

import java.util.Optional;

import io.insika.router.api.KeyExtractor;
import io.insika.router.api.RequestView;

/** The key is the first value of one query parameter, decoded and taken as sent; blank is no key. */
final class QueryKeyExtractor implements KeyExtractor {

    private final String name;

    QueryKeyExtractor(String name) {
        this.name = name;
    }

    @Override
    public Optional<String> extract(RequestView request) {
        try {
            return request.queryParameter(name).filter(value -> !value.isBlank());
        } catch (RuntimeException unreadable) {
            return Optional.empty();
        }
    }
}
