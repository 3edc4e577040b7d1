package io.insika.router.strategies.extract.json;

import java.util.ArrayList;
import java.util.List;

/**
 * Where the key sits in a JSON document: a chain of object fields and array indexes, from either a
 * plain top-level field name or a JSON Pointer (RFC 6901).
 */
record FieldPath(List<Step> steps) {

    /**
     * One level of the path.
     *
     * @param name  the object field this step enters
     * @param index the array element it enters instead, or -1 when the token cannot be an index
     */
    record Step(String name, int index) {
    }

    FieldPath {
        steps = List.copyOf(steps);
    }

    /** A field of the top-level object; never an array index, whatever the name looks like. */
    static FieldPath field(String name) {
        return new FieldPath(List.of(new Step(name, -1)));
    }

    /**
     * Parses a JSON Pointer such as {@code /session/id}.
     *
     * @throws IllegalArgumentException if it is not a non-empty pointer or uses an escape other
     *                                  than {@code ~0} and {@code ~1}
     */
    static FieldPath pointer(String pointer) {
        // The empty pointer names the whole document, which is never a key: reject it with the rest.
        if (!pointer.startsWith("/")) {
            throw new IllegalArgumentException("not starting with /");
        }
        List<Step> steps = new ArrayList<>();
        for (String raw : pointer.substring(1).split("/", -1)) {
            String name = unescape(raw);
            steps.add(new Step(name, arrayIndex(name)));
        }
        return new FieldPath(steps);
    }

    private static String unescape(String token) {
        if (token.indexOf('~') < 0) {
            return token;
        }
        StringBuilder out = new StringBuilder(token.length());
        for (int i = 0; i < token.length(); i++) {
            char c = token.charAt(i);
            if (c != '~') {
                out.append(c);
                continue;
            }
            char next = i + 1 < token.length() ? token.charAt(i + 1) : ' ';
            if (next != '0' && next != '1') {
                throw new IllegalArgumentException("bad escape");
            }
            // One left-to-right pass gives RFC 6901's result: ~01 is the text "~1", never "/".
            out.append(next == '0' ? '~' : '/');
            i++;
        }
        return out.toString();
    }

    // RFC 6901: an index is 0 or digits without a leading zero; anything else only names a field.
    private static int arrayIndex(String token) {
        if (token.isEmpty() || token.length() > 9 || (token.length() > 1 && token.charAt(0) == '0')) {
            return -1;
        }
        for (int i = 0; i < token.length(); i++) {
            if (token.charAt(i) < '0' || token.charAt(i) > '9') {
                return -1;
            }
        }
        return Integer.parseInt(token);
    }
}
