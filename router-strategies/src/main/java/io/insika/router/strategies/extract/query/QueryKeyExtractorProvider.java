package io.insika.router.strategies.extract.query;

import java.util.Set;

import io.insika.router.api.KeyExtractor;
import io.insika.router.api.KeyExtractorProvider;
import io.insika.router.api.PluginOptions;

/**
 * {@code query}: the key is the first value of the query parameter {@code name} (matched exactly,
 * percent-decoded), such as Socket.IO's {@code stickyId}; {@code ?name}, {@code ?name=} and a
 * blank value are no key.
 */
public final class QueryKeyExtractorProvider implements KeyExtractorProvider {

    /** The type written in YAML. */
    public static final String TYPE = "query";

    @Override
    public String type() {
        return TYPE;
    }

    @Override
    public KeyExtractor create(PluginOptions options) {
        options.requireOnly(Set.of("name"));
        return new QueryKeyExtractor(options.required("name", "a query parameter name such as stickyId"));
    }
}
