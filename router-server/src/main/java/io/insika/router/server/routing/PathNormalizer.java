package io.insika.router.server.routing;

import java.util.ArrayList;
import java.util.List;

/**
 * The one spelling of a request path that routes match and the backend receives, so that what
 * decided a request's placement and what its backend serves are the same string. In order:
 * <ol>
 *     <li>a percent-escape of an unreserved character (RFC 3986, section 2.3: a letter, a digit,
 *     {@code - . _ ~}) is decoded, in either case of hex ({@code %6d} and {@code %6D} are
 *     {@code m}); every other escape stays as sent, {@code %2F} included, so an escaped slash
 *     is data within a segment, never a separator; a {@code %} that begins no escape is written
 *     {@code %25}, so that no decoding can make an escape of it ({@code /%%36d} would otherwise
 *     become {@code /%6d}, which a backend decodes once more);</li>
 *     <li>repeated slashes are one ({@code //mcp} is {@code /mcp}): an empty segment is never a
 *     segment, so {@code ..} after one removes the segment before it;</li>
 *     <li>dot segments go as RFC 3986 section 5.2.4 removes them ({@code /a/./b/../c} is
 *     {@code /a/c}); a {@code ..} above the root stays at the root.</li>
 * </ol>
 * A trailing slash is kept (it may name another resource); routes match with or without it
 * ({@link io.insika.router.api.PathTemplate}). Case is kept and {@code ;} is part of its
 * segment. A path that needs none of this, nearly every one, is returned as the same string.
 */
public final class PathNormalizer {

    private PathNormalizer() {
    }

    /**
     * The normal form of a raw path.
     *
     * @param rawPath the path as sent, without its query; one not starting with {@code /} (the
     *                {@code *} of {@code OPTIONS *}) is returned as it is
     * @return the normal form
     */
    public static String normalize(String rawPath) {
        if (rawPath.isEmpty() || rawPath.charAt(0) != '/' || isNormal(rawPath)) {
            return rawPath;
        }
        String decoded = decodeUnreserved(rawPath);
        List<String> kept = new ArrayList<>();
        boolean trailingSlash = false;
        int start = 1;
        while (start <= decoded.length()) {
            int slash = decoded.indexOf('/', start);
            int end = slash < 0 ? decoded.length() : slash;
            String segment = decoded.substring(start, end);
            boolean last = slash < 0;
            if (segment.equals("..")) {
                if (!kept.isEmpty()) {
                    kept.removeLast();
                }
            } else if (!segment.isEmpty() && !segment.equals(".")) {
                kept.add(segment);
            }
            // "/a/", "/a/." and "/a/b/.." all end in a directory
            trailingSlash = last && (segment.isEmpty() || segment.equals(".") || segment.equals(".."));
            start = end + 1;
        }
        String normal = "/" + String.join("/", kept) + (trailingSlash && !kept.isEmpty() ? "/" : "");
        return normal.equals(rawPath) ? rawPath : normal;
    }

    /**
     * Whether a path is in normal form already: every {@code %} the start of an escape of a
     * reserved octet, no empty segment but a trailing one, no dot segment.
     */
    static boolean isNormal(String path) {
        int length = path.length();
        for (int i = 0; i < length; i++) {
            char c = path.charAt(i);
            if (c == '%') {
                int octet = i + 2 < length ? octet(path.charAt(i + 1), path.charAt(i + 2)) : -1;
                if (octet < 0 || isUnreserved((char) octet)) {
                    return false;
                }
                continue;
            }
            if (c == '/' && i + 1 < length) {
                char next = path.charAt(i + 1);
                if (next == '/' || next == '.' && isDotSegment(path, i + 1)) {
                    return false;
                }
            }
        }
        return true;
    }

    // "." or ".." from here to the next slash or the end
    private static boolean isDotSegment(String path, int from) {
        int end = path.indexOf('/', from);
        int length = (end < 0 ? path.length() : end) - from;
        return length == 1 || length == 2 && path.charAt(from + 1) == '.';
    }

    private static String decodeUnreserved(String path) {
        if (path.indexOf('%') < 0) {
            return path;
        }
        StringBuilder out = new StringBuilder(path.length() + 8);
        for (int i = 0; i < path.length(); i++) {
            char c = path.charAt(i);
            if (c != '%') {
                out.append(c);
                continue;
            }
            int octet = i + 2 < path.length() ? octet(path.charAt(i + 1), path.charAt(i + 2)) : -1;
            if (octet < 0) {
                out.append("%25");
            } else if (isUnreserved((char) octet)) {
                out.append((char) octet);
                i += 2;
            } else {
                out.append(path, i, i + 3);
                i += 2;
            }
        }
        return out.toString();
    }

    // the octet two hex digits spell, or -1
    private static int octet(char high, char low) {
        int h = hex(high);
        int l = hex(low);
        return h < 0 || l < 0 ? -1 : h << 4 | l;
    }

    // ASCII hex only: Character.digit would take other scripts' digits too
    private static int hex(char c) {
        if (c >= '0' && c <= '9') {
            return c - '0';
        }
        if (c >= 'a' && c <= 'f' || c >= 'A' && c <= 'F') {
            return (c | 0x20) - 'a' + 10;
        }
        return -1;
    }

    private static boolean isUnreserved(char c) {
        return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9'
                || c == '-' || c == '.' || c == '_' || c == '~';
    }
}
