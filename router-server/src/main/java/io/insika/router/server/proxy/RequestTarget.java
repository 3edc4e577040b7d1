package io.insika.router.server.proxy;

import java.util.Optional;

import io.helidon.common.uri.UriValidator;
import io.helidon.http.HttpPrologue;
import io.insika.router.server.routing.PathNormalizer;
import io.insika.router.server.upstream.HttpSyntax;

/**
 * A request's target as the router places and forwards it: always in origin form (RFC 9112,
 * section 3.2.1). A client may send the absolute form ({@code GET http://host/path}), which a
 * server must accept (section 3.2.2); routes and keys then see the same path as for the origin
 * form, the backend gets the origin form, and the target's authority stands in for {@code Host}.
 * Helidon 4.5 hands the absolute form over as the path itself, unchecked.
 */
final class RequestTarget {

    private final HttpPrologue prologue;
    private final String raw;
    // where the path begins in an absolute-form target, or -1 for any other form
    private final int pathStart;
    private String path;
    private String normalPath; // made the first time placement or forwarding asks

    private RequestTarget(HttpPrologue prologue) {
        this.prologue = prologue;
        this.raw = prologue.uriPath().rawPath();
        this.pathStart = pathStart(raw);
    }

    /** The target of this request line; its paths are made when first asked, and once. */
    static RequestTarget of(HttpPrologue prologue) {
        return new RequestTarget(prologue);
    }

    HttpPrologue prologue() {
        return prologue;
    }

    /**
     * Whether the router forwards this target: the origin form, or the absolute form of an
     * {@code http} or {@code https} URI whose authority is what a {@code Host} header may hold.
     * Not a target with userinfo ({@code http://user:pass@host/}: a sender must not generate it,
     * RFC 9110 section 4.2.4, and nginx and HAProxy refuse it), nor another scheme, nor an empty
     * host, nor the asterisk form or a relative path: nothing the router could place by its path
     * or forward in origin form.
     */
    boolean forwardable() {
        if (raw.startsWith("/")) {
            return true;
        }
        if (pathStart < 0) {
            return false;
        }
        String scheme = raw.substring(0, raw.indexOf(':'));
        return (scheme.equalsIgnoreCase("http") || scheme.equalsIgnoreCase("https"))
                && isHost(raw.substring(raw.indexOf("//") + 2, pathStart));
    }

    /**
     * The raw path, without scheme and authority when the target was in absolute form (of any
     * scheme: what is logged of a refused target never holds its authority either).
     */
    String path() {
        if (path == null) {
            path = pathStart < 0 ? raw : pathStart == raw.length() ? "/" : raw.substring(pathStart);
        }
        return path;
    }

    /**
     * The path routes match and the backend gets: {@link #path} in normal form
     * ({@link PathNormalizer}). Forwarding the form that was matched keeps the route that placed
     * a request and the resource its backend serves one string: no spelling ({@code //mcp},
     * {@code /./mcp}, {@code /%6dcp}) can be placed as one resource and served as another.
     */
    String normalPath() {
        if (normalPath == null) {
            normalPath = PathNormalizer.normalize(path());
        }
        return normalPath;
    }

    /** The target to send: the normal path and the raw query, in origin form. */
    String originForm() {
        return prologue.hasQuery() ? normalPath() + "?" + prologue.query().rawValue() : normalPath();
    }

    /** The authority of an absolute-form target, which replaces the client's {@code Host}. */
    Optional<String> authority() {
        return pathStart < 0 ? Optional.empty() : Optional.of(raw.substring(raw.indexOf("//") + 2, pathStart));
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

    // scheme = ALPHA *( ALPHA / DIGIT / "+" / "-" / "." ) (RFC 3986, section 3.1)
    private static boolean isScheme(String raw, int end) {
        for (int i = 0; i < end; i++) {
            char c = raw.charAt(i);
            boolean letter = c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z';
            if (!letter && (i == 0 || !(c >= '0' && c <= '9' || c == '+' || c == '-' || c == '.'))) {
                return false;
            }
        }
        return true;
    }

    // What Helidon 4.5 holds a Host header to (Http1Connection's host validation), with a
    // non-empty host (RFC 9110, section 4.2.1) and a port of one to five digits (Helidon's
    // Integer.parseInt would take "+80")
    private static boolean isHost(String authority) {
        if (authority.indexOf('@') >= 0) {
            return false;
        }
        String host = authority;
        int colon = authority.lastIndexOf(':');
        if (colon > authority.lastIndexOf(']')) {
            String port = authority.substring(colon + 1);
            if (port.isEmpty() || port.length() > 5 || HttpSyntax.length(port) < 0) {
                return false;
            }
            host = authority.substring(0, colon);
        }
        if (host.isEmpty()) {
            return false;
        }
        try {
            if (host.charAt(0) == '[') {
                UriValidator.validateIpLiteral(host);
            } else {
                UriValidator.validateNonIpLiteral(host);
            }
            return true;
        } catch (IllegalArgumentException e) {
            return false;
        }
    }
}
