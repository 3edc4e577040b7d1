package io.insika.router.server.proxy;

import java.util.Optional;

import io.helidon.http.HttpPrologue;

/**
 * A request's target as the router places and forwards it: always in origin form (RFC 9112,
 * section 3.2.1). A client may send the absolute form ({@code GET http://host/path}), which a
 * server must accept (section 3.2.2); routes and keys then see the same path as for the origin
 * form, the backend gets the origin form, and the target's authority stands in for {@code Host}.
 * Helidon 4.5 hands the absolute form over as the path itself.
 */
final class RequestTarget {

    private RequestTarget() {
    }

    /** The raw path, without scheme and authority when the target was in absolute form. */
    static String path(HttpPrologue prologue) {
        String raw = prologue.uriPath().rawPath();
        int start = pathStart(raw);
        if (start < 0) {
            return raw;
        }
        return start == raw.length() ? "/" : raw.substring(start);
    }

    /** The target to send: raw path and raw query, in origin form. */
    static String originForm(HttpPrologue prologue) {
        String path = path(prologue);
        return prologue.hasQuery() ? path + "?" + prologue.query().rawValue() : path;
    }

    /** The authority of an absolute-form target, which replaces the client's {@code Host}. */
    static Optional<String> authority(HttpPrologue prologue) {
        String raw = prologue.uriPath().rawPath();
        int start = pathStart(raw);
        if (start < 0) {
            return Optional.empty();
        }
        int from = raw.indexOf("//") + 2;
        return Optional.of(raw.substring(from, start));
    }

    // Where the path begins in "scheme://authority/path", or -1 for a target in another form.
    private static int pathStart(String raw) {
        if (raw.isEmpty() || raw.charAt(0) == '/') {
            return -1;
        }
        int scheme = raw.indexOf("://");
        if (scheme <= 0 || !isScheme(raw, scheme)) {
            return -1;
        }
        int slash = raw.indexOf('/', scheme + 3);
        return slash < 0 ? raw.length() : slash;
    }

    private static boolean isScheme(String raw, int end) {
        String scheme = raw.substring(0, end);
        return scheme.equalsIgnoreCase("http") || scheme.equalsIgnoreCase("https");
    }
}
