package io.insika.router.strategies.extract.cookie;

import io.insika.router.api.KeyExtractor;
import io.insika.router.api.KeyExtractorProvider;
import io.insika.router.api.PluginOptions;
import io.insika.router.strategies.extract.HttpToken;

/**
 * {@code cookie}: the key is the value of the cookie {@code name} (matched exactly; its first
 * occurrence, without surrounding quotes); an absent, empty or blank cookie is no key.
 */
public final class CookieKeyExtractorProvider implements KeyExtractorProvider {

    /** The type written in YAML. */
    public static final String TYPE = "cookie";

    @Override
    public String type() {
        return TYPE;
    }

    @Override
    public KeyExtractor create(PluginOptions options) {
        return new CookieKeyExtractor(HttpToken.requiredName(options, "a cookie name such as session"));
    }
}
