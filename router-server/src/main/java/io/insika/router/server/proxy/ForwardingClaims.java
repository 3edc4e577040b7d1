package io.insika.router.server.proxy;

import java.net.InetSocketAddress;
import java.net.SocketAddress;
import java.util.Set;

import io.insika.router.server.upstream.HttpSyntax;

/**
 * The header fields in which a request speaks of the connection it came over: who the client is,
 * which scheme, host, port or path prefix it used. A backend that believes them grants or logs on
 * their word, so only a {@link TrustedProxies trusted proxy} may send them: from any other peer
 * none reaches a backend. The router writes its own {@code X-Forwarded-For}, {@code -Proto} and
 * {@code -Host} ({@link ForwardedHeaders}); it does not write RFC 7239's {@code Forwarded}, but
 * adds its element to a trusted proxy's, as it adds the peer to its {@code X-Forwarded-For}.
 */
final class ForwardingClaims {

    // Read by common frameworks and servers besides X-Forwarded-*: nginx's real-IP module,
    // CDNs (Akamai, Cloudflare, Fastly), Rails' remote IP (Client-IP), Rack's scheme.
    private static final Set<String> NAMES = Set.of("forwarded", "x-real-ip", "true-client-ip", "client-ip",
            "x-client-ip", "x-cluster-client-ip", "cf-connecting-ip", "fastly-client-ip", "x-original-forwarded-for",
            "front-end-https", "x-url-scheme");

    private ForwardingClaims() {
    }

    /** Whether a field of this lower-case name is a claim of the client connection. */
    static boolean isClaim(String name) {
        return name.startsWith("x-forwarded-") || NAMES.contains(name);
    }

    /**
     * The router's own element of {@code Forwarded} (RFC 7239, section 4): the peer it saw, the
     * scheme and the host it was asked for, each a token or else quoted, an IPv6 address in
     * brackets (section 6.1).
     */
    static String forwardedElement(SocketAddress peer, boolean secure, String host) {
        String node = peer instanceof InetSocketAddress inet && inet.getAddress() != null
                ? inet.getAddress().getHostAddress() : "unknown";
        StringBuilder element = new StringBuilder("for=");
        value(element, node.indexOf(':') >= 0 ? "[" + node + "]" : node);
        element.append(";proto=").append(secure ? "https" : "http");
        if (!host.isEmpty()) {
            element.append(";host=");
            value(element, host);
        }
        return element.toString();
    }

    private static void value(StringBuilder out, String value) {
        if (HttpSyntax.isToken(value)) {
            out.append(value);
            return;
        }
        out.append('"');
        for (int i = 0; i < value.length(); i++) {
            char c = value.charAt(i);
            if (c == '"' || c == '\\') {
                out.append('\\');
            }
            out.append(c);
        }
        out.append('"');
    }
}
