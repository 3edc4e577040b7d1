package io.insika.router.strategies.extract;

import java.util.Set;

import io.insika.router.api.PluginOptions;

/**
 * RFC 9110's {@code token}, the grammar of header and cookie names: an option naming one with a
 * space, colon or other separator could never match a request, so it is rejected at start-up.
 */
public final class HttpToken {

    private static final String SEPARATORS = "\"(),/:;<=>?@[\\]{}";

    private HttpToken() {
    }

    /**
     * Whether a name is a non-empty token.
     *
     * @param name the name
     * @return {@code true} if every char is a visible ASCII char other than a separator
     */
    public static boolean matches(String name) {
        if (name.isEmpty()) {
            return false;
        }
        for (int i = 0; i < name.length(); i++) {
            char c = name.charAt(i);
            if (c <= ' ' || c >= 0x7f || SEPARATORS.indexOf(c) >= 0) {
                return false;
            }
        }
        return true;
    }

    /**
     * The one option of a header or cookie extractor, {@code name}, validated as a token.
     *
     * @param options  the extractor's options; {@code name} must be the only one
     * @param expected what a valid name looks like, for the message
     * @return the name
     * @throws io.insika.router.api.PluginConfigException if another option is given or the name
     *                                                    is missing or not a token
     */
    public static String requiredName(PluginOptions options, String expected) {
        options.requireOnly(Set.of("name"));
        String name = options.required("name", expected);
        if (!matches(name)) {
            throw options.invalid("name", name, expected);
        }
        return name;
    }
}
