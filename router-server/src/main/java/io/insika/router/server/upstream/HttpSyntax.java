package io.insika.router.server.upstream;

/**
 * The character classes of RFC 9110 (section 5.6.2, tokens; section 5.5, field values) that
 * every head the router reads or writes is held to, in both directions.
 */
public final class HttpSyntax {

    // tchar = "!" / "#" / "$" / "%" / "&" / "'" / "*" / "+" / "-" / "." / "^" / "_" / "`" / "|" / "~"
    //       / DIGIT / ALPHA
    private static final boolean[] TCHAR = new boolean[128];

    static {
        for (char c = '0'; c <= '9'; c++) {
            TCHAR[c] = true;
        }
        for (char c = 'a'; c <= 'z'; c++) {
            TCHAR[c] = true;
            TCHAR[c - 'a' + 'A'] = true;
        }
        for (char c : "!#$%&'*+-.^_`|~".toCharArray()) {
            TCHAR[c] = true;
        }
    }

    private HttpSyntax() {
    }

    /** Whether the character (or octet, as a signed byte: never) may be part of a token. */
    public static boolean isTokenChar(int c) {
        return c >= 0 && c < 128 && TCHAR[c];
    }

    /** Whether the text is a non-empty token: a method or a field name. */
    public static boolean isToken(String text) {
        int length = text.length();
        if (length == 0) {
            return false;
        }
        for (int i = 0; i < length; i++) {
            if (!isTokenChar(text.charAt(i))) {
                return false;
            }
        }
        return true;
    }

    /** field-vchar, SP or HTAB: anything but the control characters (and DEL); obs-text included. */
    public static boolean isFieldValueChar(int c) {
        return c == '\t' || (c >= 0x20 && c != 0x7f && c <= 0xff);
    }

    /**
     * A {@code Content-Length} value: 1 to 18 digits, no sign, no space, nothing else.
     *
     * @return the length, or -1 when the value is not one
     */
    public static long length(String value) {
        if (value.isEmpty() || value.length() > 18) {
            return -1;
        }
        long length = 0;
        for (int i = 0; i < value.length(); i++) {
            char c = value.charAt(i);
            if (c < '0' || c > '9') {
                return -1;
            }
            length = length * 10 + (c - '0');
        }
        return length;
    }

    /** A request target in origin or absolute form: visible ASCII, nothing else. */
    public static boolean isTarget(String text) {
        int length = text.length();
        if (length == 0) {
            return false;
        }
        for (int i = 0; i < length; i++) {
            if (!isTargetChar(text.charAt(i))) {
                return false;
            }
        }
        return true;
    }

    /** Whether the character (or octet, as a signed byte: never above 0x7E) may be part of a request target. */
    public static boolean isTargetChar(int c) {
        return c > 0x20 && c < 0x7f;
    }

    /** For error messages: at most 80 characters, each outside visible ASCII shown as '?'. */
    static String printable(String text) {
        String shown = text.length() > 80 ? text.substring(0, 80) + "..." : text;
        return shown.replaceAll("[^\\x20-\\x7e]", "?");
    }
}
