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
     * Whether a comma-separated list of tokens (a {@code Connection} value) holds this one, in
     * any case, with optional whitespace around each element. Reads the value where it lies.
     *
     * @param lowerCaseToken the token, in lower case
     */
    public static boolean hasToken(String value, String lowerCaseToken) {
        int length = value.length();
        int from = 0;
        while (from <= length) {
            int comma = value.indexOf(',', from);
            int end = comma < 0 ? length : comma;
            int start = from;
            while (start < end && (value.charAt(start) == ' ' || value.charAt(start) == '\t')) {
                start++;
            }
            int stop = end;
            while (stop > start && (value.charAt(stop - 1) == ' ' || value.charAt(stop - 1) == '\t')) {
                stop--;
            }
            if (stop - start == lowerCaseToken.length()
                    && value.regionMatches(true, start, lowerCaseToken, 0, lowerCaseToken.length())) {
                return true;
            }
            from = end + 1;
        }
        return false;
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

    /**
     * Whether what follows a chunk size on its line, from {@code from}, is nothing or chunk
     * extensions (RFC 9112, section 7.1.1): {@code *( BWS ";" BWS ext-name [ BWS "=" BWS ext-val ] )},
     * read past by the router, so only checked for bytes no extension may hold.
     */
    public static boolean isChunkExtension(String line, int from) {
        int i = from;
        while (i < line.length() && (line.charAt(i) == ' ' || line.charAt(i) == '\t')) {
            i++;
        }
        if (i == line.length()) {
            return true;
        }
        if (line.charAt(i) != ';') {
            return false;
        }
        for (; i < line.length(); i++) {
            if (!isFieldValueChar(line.charAt(i))) {
                return false;
            }
        }
        return true;
    }

    /**
     * The size a chunk line (without its line end) gives: 1 to 15 hex digits, no sign, no
     * {@code 0x}, then optional extensions.
     *
     * @return the size, or -1 when the line is not a chunk line
     */
    public static long chunkSize(String line) {
        int digits = 0;
        long size = 0;
        while (digits < line.length() && digits <= 15) {
            int digit = Character.digit(line.charAt(digits), 16);
            if (digit < 0 || line.charAt(digits) >= 0x80) {
                break;
            }
            size = (size << 4) | digit;
            digits++;
        }
        return digits == 0 || digits > 15 || !isChunkExtension(line, digits) ? -1 : size;
    }

    /** For error messages: at most 80 characters, each outside visible ASCII shown as '?'. */
    public static String printable(String text) {
        String shown = text.length() > 80 ? text.substring(0, 80) + "..." : text;
        return shown.replaceAll("[^\\x20-\\x7e]", "?");
    }
}
