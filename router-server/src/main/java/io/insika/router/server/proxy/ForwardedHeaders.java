package io.insika.router.server.proxy;

import java.net.InetSocketAddress;
import java.net.SocketAddress;
import java.util.List;
import java.util.Optional;
import java.util.Set;

import io.helidon.http.Header;
import io.helidon.http.HeaderName;
import io.helidon.http.HeaderNames;
import io.helidon.http.ServerRequestHeaders;
import io.insika.router.server.upstream.RequestWriter;

/**
 * The head fields a backend receives: {@code Host}, the client's end-to-end headers unchanged,
 * and the {@code X-Forwarded-*} trio. The fields that frame the message or that the router
 * vouches for are never copied from the client, so no client header (and no {@code Connection}
 * token) can add, remove or forge them:
 * <ul>
 * <li>{@code Content-Length} and {@code Transfer-Encoding}: {@link RequestWriter#endHead} writes
 *     the framing of the body really sent;</li>
 * <li>{@code Host}: written first, exactly once, from the target's authority when the client
 *     used the absolute form (RFC 9112, section 3.2.2), else from the client's own;</li>
 * <li>{@code X-Forwarded-For}, {@code -Proto}, {@code -Host}: a client's values are kept only
 *     when its peer is a {@link TrustedProxies trusted proxy}; otherwise the router's own
 *     stand;</li>
 * <li>every other {@link ForwardingClaims claim of the client connection} ({@code Forwarded},
 *     {@code X-Real-IP}, {@code X-Forwarded-Port}...): passed from a trusted proxy only, its
 *     {@code Forwarded} with the router's own element added;</li>
 * <li>{@code Proxy-Authorization}: the credential of a proxy, not of the backend (RFC 9110,
 *     section 11.7.2).</li>
 * <li>{@code X-Request-Id}: written once, last, with the request's {@link RequestId} (the
 *     client's own when it is valid).</li>
 * <li>the carrier of a session key the backend minted ({@link SessionCarrier}): written once,
 *     with the value the backend minted in place of the sealed one the client sent.</li>
 * </ul>
 * A name spelled with {@code _} for {@code -} is read as WSGI and CGI servers read it
 * ({@code X_Forwarded_For} and {@code X-Forwarded-For} are both {@code HTTP_X_FORWARDED_FOR}):
 * such a spelling of any name above is never forwarded, from any peer. Other names with
 * {@code _} pass: they vouch for nothing the router does.
 */
final class ForwardedHeaders {

    static final HeaderName X_FORWARDED_FOR = HeaderNames.create("X-Forwarded-For");
    static final HeaderName X_FORWARDED_PROTO = HeaderNames.create("X-Forwarded-Proto");
    static final HeaderName X_FORWARDED_HOST = HeaderNames.create("X-Forwarded-Host");

    // Compared by lower-case name: Helidon's HeaderName equality depends on how the name was made.
    private static final Set<String> ROUTER_OWNED = Set.of("host", "content-length", "transfer-encoding",
            "x-forwarded-for", "x-forwarded-proto", "x-forwarded-host", "proxy-authorization", "x-request-id");

    private ForwardedHeaders() {
    }

    /**
     * Writes the head fields of the request, framing excepted: its target's authority or its
     * {@code Host}, its fields, its learned carriers' original values, and the forwarding fields
     * its client's peer, the connection's TLS and the trusted proxies of its parts say.
     *
     * @param hopByHop the headers that stay behind
     */
    static void copy(ProxyCall call, HopByHopHeaders hopByHop, RequestWriter outgoing) {
        ServerRequestHeaders incoming = call.request().headers();
        SocketAddress peer = call.request().peer();
        boolean secure = call.request().secure();
        SessionCarrier carrier = call.carrier();
        Optional<String> authority = call.target().authority();
        String host = authority.isPresent() ? authority.get() : incoming.first(HeaderNames.HOST).orElse("");
        if (!host.isEmpty()) {
            outgoing.header(HeaderNames.HOST.defaultCase(), host);
        }
        boolean believed = call.parts().trustedProxies().trusts(peer);
        for (Header header : incoming) {
            String lowerCase = header.headerName().lowerCase();
            String name = header.headerName().defaultCase();
            if (carrier.replaces(header)) {
                carrier.forward(header, outgoing);
            } else if (passes(lowerCase, header, hopByHop, believed)) {
                if (lowerCase.equals("forwarded")) {
                    outgoing.header(name, String.join(", ", header.allValues()) + ", "
                            + ForwardingClaims.forwardedElement(peer, secure, host));
                } else if (header.valueCount() == 1) {
                    outgoing.header(name, header.get()); // most fields: no list made of one value
                } else {
                    for (String value : header.allValues()) {
                        outgoing.header(name, value);
                    }
                }
            }
        }
        String peerAddress = peerAddress(peer);
        List<String> chain = believed && !hopByHop.names(X_FORWARDED_FOR) ? incoming.values(X_FORWARDED_FOR) : List.of();
        outgoing.header(X_FORWARDED_FOR.defaultCase(),
                chain.isEmpty() ? peerAddress : String.join(", ", chain) + ", " + peerAddress);
        outgoing.header(X_FORWARDED_PROTO.defaultCase(),
                believedValue(believed, incoming, hopByHop, X_FORWARDED_PROTO, secure ? "https" : "http"));
        if (!host.isEmpty()) {
            outgoing.header(X_FORWARDED_HOST.defaultCase(),
                    believedValue(believed, incoming, hopByHop, X_FORWARDED_HOST, host));
        }
        outgoing.header(RequestId.HEADER.defaultCase(), call.requestId());
    }

    // Whether a client field reaches the backend as it came (a trusted proxy's Forwarded grows)
    private static boolean passes(String lowerCase, Header header, HopByHopHeaders hopByHop, boolean believed) {
        return !ROUTER_OWNED.contains(lowerCase) && !hopByHop.excludes(header) && !alias(lowerCase)
                && (believed || !ForwardingClaims.isClaim(lowerCase));
    }

    // Another spelling of a name the router vouches for, as a backend that reads '_' as '-' sees it
    private static boolean alias(String lowerCase) {
        if (lowerCase.indexOf('_') < 0) {
            return false;
        }
        String read = lowerCase.replace('_', '-');
        return ROUTER_OWNED.contains(read) || ForwardingClaims.isClaim(read);
    }

    // A trusted proxy saw the client and we did not: its value stands. Anyone else gets ours.
    private static String believedValue(boolean believed, ServerRequestHeaders incoming, HopByHopHeaders hopByHop,
                                        HeaderName name, String ours) {
        if (believed && !hopByHop.names(name)) {
            return incoming.first(name).orElse(ours);
        }
        return ours;
    }

    private static String peerAddress(SocketAddress address) {
        if (address instanceof InetSocketAddress inet && inet.getAddress() != null) {
            return inet.getAddress().getHostAddress();
        }
        return String.valueOf(address);
    }
}
