package io.insika.router.strategies.extract.header;

import io.insika.router.api.KeyExtractor;
import io.insika.router.api.KeyExtractorProvider;
import io.insika.router.api.PluginOptions;
import io.insika.router.strategies.extract.HttpToken;

/**
 * {@code header}: the key is the first value of the header {@code name} (matched
 * case-insensitively), with surrounding whitespace removed; an absent or blank header is no key.
 */
public final class HeaderKeyExtractorProvider implements KeyExtractorProvider {

    /** The type written in YAML. */
    public static final String TYPE = "header";

    @Override
    public String type() {
        return TYPE;
    }

    @Override
    public KeyExtractor create(PluginOptions options) {
        return new HeaderKeyExtractor(HttpToken.requiredName(options, "a header name such as x-sigx-actor-route"));
    }
}
