package io.insika.router.server.proxy;

import java.net.InetSocketAddress;
import java.net.SocketAddress;

import io.helidon.http.Header;
import io.helidon.http.HeaderName;
import io.helidon.http.HeaderNames;
import io.helidon.http.ServerRequestHeaders;
import io.helidon.webserver.http.ServerRequest;

/**
 * The headers a backend receives: the client's end-to-end headers unchanged (its {@code Host}
 * included), plus the {@code X-Forwarded-*} trio.
 */
final class ForwardedHeaders {

    static final HeaderName X_FORWARDED_FOR = HeaderNames.create("X-Forwarded-For");
    static final HeaderName X_FORWARDED_PROTO = HeaderNames.create("X-Forwarded-Proto");
    static final HeaderName X_FORWARDED_HOST = HeaderNames.create("X-Forwarded-Host");

    private ForwardedHeaders() {
    }

    static void copy(ServerRequest request, RequestWriter outgoing) {
        copy(request.headers(), request.remotePeer().address(), request.isSecure(), HopByHopHeaders.of(request.headers()),
                outgoing);
    }

    /**
     * Copies the headers that {@code hopByHop} does not exclude, then sets the forwarding trio.
     *
     * @param peer   the client's address
     * @param secure whether the client connection is TLS
     */
    static void copy(ServerRequestHeaders incoming, SocketAddress peer, boolean secure, HopByHopHeaders hopByHop,
                     RequestWriter outgoing) {
        for (Header header : incoming) {
            HeaderName name = header.headerName();
            if (!hopByHop.excludes(header) && !name.equals(X_FORWARDED_FOR)) {
                for (String value : header.allValues()) {
                    outgoing.header(name.defaultCase(), value);
                }
            }
        }
        // The chain grows by one hop; Proto and Host are kept when an earlier proxy (an ingress
        // that terminated TLS, say) set them, since it saw the client and we did not.
        String peerAddress = peerAddress(peer);
        String chain = String.join(", ", incoming.values(X_FORWARDED_FOR));
        outgoing.header(X_FORWARDED_FOR.defaultCase(), chain.isEmpty() ? peerAddress : chain + ", " + peerAddress);
        if (!incoming.contains(X_FORWARDED_PROTO)) {
            outgoing.header(X_FORWARDED_PROTO.defaultCase(), secure ? "https" : "http");
        }
        if (!incoming.contains(X_FORWARDED_HOST)) {
            incoming.first(HeaderNames.HOST).ifPresent(host -> outgoing.header(X_FORWARDED_HOST.defaultCase(), host));
        }
    }

    private static String peerAddress(SocketAddress address) {
        if (address instanceof InetSocketAddress inet && inet.getAddress() != null) {
            return inet.getAddress().getHostAddress();
        }
        return String.valueOf(address);
    }
}
