package io.insika.router.api;

import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;

/**
 * A path pattern such as {@code /channels/{id}/messages} that matches request paths and captures
 * named segments.
 *
 * <p>Syntax, segment by segment (segments are separated by {@code /}):
 * <ul>
 *     <li>a literal, such as {@code channels}, matches that exact raw segment (case-sensitive);</li>
 *     <li>{@code {name}} matches any one non-empty segment and captures it, percent-decoded, as
 *     {@code name};</li>
 *     <li>{@code *} matches any one segment; as the <em>last</em> segment it matches the whole rest
 *     of the path instead, including nothing ({@code /studio/*} matches {@code /studio},
 *     {@code /studio/} and {@code /studio/a/b}).</li>
 * </ul>
 * A token in the middle of a longer path is written with a trailing {@code *}:
 * {@code /r/{token}/*} matches {@code /r/abc/Counter%23inc}. One trailing slash, of the path or
 * of the template, makes no difference: {@code /mcp} matches {@code /mcp/} and {@code /mcp/}
 * matches {@code /mcp}, as most web frameworks serve them alike. Templates are immutable and
 * matching never throws: a malformed percent-escape is captured as sent.
 *
 * <p>The router matches the path in its normal form, the one the backend is sent: unreserved
 * characters percent-decoded, repeated slashes merged, dot segments removed (docs/architecture.md,
 * "One path"). A template is written in that form.
 */
public final class PathTemplate {

    private final String template;
    private final List<String> segments;
    private final boolean restWildcard;

    private PathTemplate(String template, List<String> segments, boolean restWildcard) {
        this.template = template;
        this.segments = segments;
        this.restWildcard = restWildcard;
    }

    /**
     * Parses a template.
     *
     * @param template starts with {@code /}; parameter names are unique and non-empty
     * @return the template
     * @throws IllegalArgumentException if the template is malformed, with a message that says how
     */
    public static PathTemplate parse(String template) {
        Objects.requireNonNull(template, "template");
        if (!template.startsWith("/")) {
            throw new IllegalArgumentException("path: [" + template + "] (expected: a path starting with /)");
        }
        List<String> parts = withoutTrailingSlash(split(template));
        Set<String> names = new HashSet<>();
        for (String part : parts) {
            if (part.startsWith("{") || part.endsWith("}") || part.contains("{") || part.contains("}")) {
                boolean wellFormed = part.length() > 2 && part.startsWith("{") && part.endsWith("}")
                        && part.indexOf('{', 1) < 0 && part.indexOf('}') == part.length() - 1;
                if (!wellFormed) {
                    throw new IllegalArgumentException("path: [" + template
                            + "] (expected: a parameter as a whole segment, such as /channels/{id}/messages)");
                }
                if (!names.add(part.substring(1, part.length() - 1))) {
                    throw new IllegalArgumentException("path: [" + template + "] (expected: unique parameter names)");
                }
            }
        }
        boolean rest = !parts.isEmpty() && parts.getLast().equals("*");
        List<String> fixed = rest ? parts.subList(0, parts.size() - 1) : parts;
        return new PathTemplate(template, List.copyOf(fixed), rest);
    }

    /**
     * Matches a raw request path (without its query).
     *
     * @param rawPath the path, percent-encoded; the router hands over its normal form
     * @return the captured parameters, percent-decoded, in template order; empty if the path does
     * not match
     */
    public Optional<Map<String, String>> match(String rawPath) {
        if (rawPath == null || !rawPath.startsWith("/")) {
            return Optional.empty();
        }
        // Walked in place, segment by segment: every request tries every route, so no list of
        // the path's segments is made; only a captured parameter costs a string.
        int end = rawPath.length();
        if (end > 1 && rawPath.charAt(end - 1) == '/') {
            end--; // "/a/" is "/a"; "/" keeps its one empty segment
        }
        int at = 1;
        Map<String, String> captured = null;
        for (String want : segments) {
            if (at > end) {
                return Optional.empty(); // the path has fewer segments
            }
            int slash = rawPath.indexOf('/', at);
            int segmentEnd = slash < 0 || slash > end ? end : slash;
            int length = segmentEnd - at;
            if (want.startsWith("{")) {
                if (length == 0) {
                    return Optional.empty();
                }
                if (captured == null) {
                    captured = new LinkedHashMap<>();
                }
                captured.put(want.substring(1, want.length() - 1), decode(rawPath.substring(at, segmentEnd)));
            } else if (!want.equals("*") && (want.length() != length || !rawPath.regionMatches(at, want, 0, length))) {
                return Optional.empty();
            }
            at = segmentEnd + 1;
        }
        if (!restWildcard && at <= end) {
            return Optional.empty(); // the path has more segments
        }
        return Optional.of(captured == null ? Map.of() : captured);
    }

    /**
     * Whether a raw request path matches, without capturing anything.
     *
     * @param rawPath the path as sent
     * @return {@code true} if {@link #match(String)} would match
     */
    public boolean matches(String rawPath) {
        return match(rawPath).isPresent();
    }

    /**
     * The names of the parameters this template captures, in order.
     *
     * @return the parameter names
     */
    public List<String> parameterNames() {
        List<String> names = new ArrayList<>();
        for (String segment : segments) {
            if (segment.startsWith("{")) {
                names.add(segment.substring(1, segment.length() - 1));
            }
        }
        return names;
    }

    /** The template as written. */
    @Override
    public String toString() {
        return template;
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof PathTemplate other && template.equals(other.template);
    }

    @Override
    public int hashCode() {
        return template.hashCode();
    }

    // "/a/b" -> [a, b]; "/" -> [""]; "/a/" -> [a, ""]
    private static List<String> split(String path) {
        List<String> parts = new ArrayList<>();
        int start = 1;
        while (true) {
            int slash = path.indexOf('/', start);
            if (slash < 0) {
                parts.add(path.substring(start));
                return parts;
            }
            parts.add(path.substring(start, slash));
            start = slash + 1;
        }
    }

    // "/a/" -> [a]; "/" stays [""], the root's one empty segment
    private static List<String> withoutTrailingSlash(List<String> parts) {
        return parts.size() > 1 && parts.getLast().isEmpty() ? parts.subList(0, parts.size() - 1) : parts;
    }

    private static String decode(String segment) {
        if (segment.indexOf('%') < 0) {
            return segment;
        }
        try {
            // A '+' in a path is a plus, not a space: protect it from form decoding.
            return URLDecoder.decode(segment.replace("+", "%2B"), StandardCharsets.UTF_8);
        } catch (IllegalArgumentException malformed) {
            return segment;
        }
    }
}
