package io.insika.router.strategies.extract.cookie;

import java.util.Optional;

import io.insika.router.api.KeyExtractor;
import io.insika.router.api.RequestView;

/** The key is the value of one cookie, taken as sent; blank is no key. */
final class CookieKeyExtractor implements KeyExtractor {

    private final String name;

    CookieKeyExtractor(String name) {
        this.name = name;
    }

    @Override
    public Optional<String> extract(RequestView request) {
        try {
            return request.cookie(name).filter(value -> !value.isBlank());
        } catch (RuntimeException unreadable) {
            return Optional.empty();
        }
    }
}
