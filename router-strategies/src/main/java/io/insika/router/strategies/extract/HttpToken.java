package io.insika.router.strategies.extract;

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
}
