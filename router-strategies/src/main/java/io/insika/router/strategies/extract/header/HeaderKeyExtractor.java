package io.insika.router.strategies.extract.header;

import java.util.Optional;

import io.insika.router.api.KeyExtractor;
import io.insika.router.api.RequestView;

/** The key is the first value of one header, trimmed; a blank value is no key. */
final class HeaderKeyExtractor implements KeyExtractor {

    private final String name;

    HeaderKeyExtractor(String name) {
        this.name = name;
    }

    @Override
    public Optional<String> extract(RequestView request) {
        try {
            return request.header(name).map(String::strip).filter(value -> !value.isEmpty());
        } catch (RuntimeException unreadable) {
            return Optional.empty();
        }
    }
}
