package io.insika.router.server.proxy;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * One {@code name=value} pair of a {@code Cookie} or {@code Set-Cookie} field, and where its value
 * lies in the field's text, so that the value alone can be replaced and every other octet of the
 * field (other cookies, attributes, spacing) kept as it was. A value in double quotes (RFC 6265,
 * section 4.1.1) is the text between them; a replacement is quoted alike.
 *
 * @param name   the cookie's name, without surrounding spaces
 * @param value  its value, unquoted and without surrounding spaces
 * @param field  which field line of its name it came from
 * @param start  where the value (with its quotes) starts in the field's text
 * @param end    where it ends
 * @param quoted whether it was in double quotes
 */
record CookieValue(String name, String value, int field, int start, int end, boolean quoted) {

    /**
     * Every pair of a {@code Cookie} field; segments without {@code =} are passed over. Pairs are
     * split at {@code ;} and at {@code ,} too: RFC 6265 separates them with {@code ;} alone, but
     * servers that also split at commas (RFC 2965's form; Helidon, Servlet containers) read
     * {@code a=b, SESSIONID=x} as two cookies, and no cookie value may hold a comma.
     */
    static List<CookieValue> all(String text, int field) {
        List<CookieValue> pairs = new ArrayList<>(4);
        int from = 0;
        while (from <= text.length()) {
            int to = from;
            while (to < text.length() && text.charAt(to) != ';' && text.charAt(to) != ',') {
                to++;
            }
            pair(text, field, from, to).ifPresent(pairs::add);
            from = to + 1;
        }
        return pairs;
    }

    /** The cookie a {@code Set-Cookie} field sets: its first pair; what follows are attributes. */
    static Optional<CookieValue> first(String text) {
        int semicolon = text.indexOf(';');
        return pair(text, 0, 0, semicolon < 0 ? text.length() : semicolon);
    }

    /**
     * The names of the pairs that follow a comma in a {@code Set-Cookie} field: attributes or
     * dates to a browser, cookies of their own to a client that splits fields at commas.
     */
    static List<String> namesAfterCommas(String text) {
        List<String> names = List.of();
        for (int comma = text.indexOf(','); comma >= 0; comma = text.indexOf(',', comma + 1)) {
            int to = comma + 1;
            while (to < text.length() && text.charAt(to) != ';' && text.charAt(to) != ',') {
                to++;
            }
            Optional<CookieValue> pair = pair(text, 0, comma + 1, to);
            if (pair.isPresent()) {
                names = names.isEmpty() ? new ArrayList<>(2) : names;
                names.add(pair.get().name());
            }
        }
        return names;
    }

    private static Optional<CookieValue> pair(String text, int field, int from, int to) {
        int equals = text.indexOf('=', from);
        if (equals < 0 || equals >= to) {
            return Optional.empty();
        }
        String name = text.substring(from, equals).strip();
        int start = equals + 1;
        while (start < to && isSpace(text.charAt(start))) {
            start++;
        }
        int end = to;
        while (end > start && isSpace(text.charAt(end - 1))) {
            end--;
        }
        boolean quoted = end - start >= 2 && text.charAt(start) == '"' && text.charAt(end - 1) == '"';
        String value = quoted ? text.substring(start + 1, end - 1) : text.substring(start, end);
        return Optional.of(new CookieValue(name, value, field, start, end, quoted));
    }

    /** The field's text with this value replaced, everything else as it was. */
    String replaced(String text, String replacement) {
        return text.substring(0, start) + (quoted ? "\"" + replacement + "\"" : replacement) + text.substring(end);
    }

    /**
     * Whether a value is all cookie-octets (RFC 6265, section 4.1.1): visible ASCII but {@code "},
     * {@code ,}, {@code ;} and {@code \}.
     */
    static boolean octets(String value) {
        for (int i = 0; i < value.length(); i++) {
            char c = value.charAt(i);
            if (c < 0x21 || c > 0x7e || c == '"' || c == ',' || c == ';' || c == '\\') {
                return false;
            }
        }
        return true;
    }

    private static boolean isSpace(char c) {
        return c == ' ' || c == '\t';
    }
}
