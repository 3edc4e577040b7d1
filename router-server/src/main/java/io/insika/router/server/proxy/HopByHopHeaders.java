package io.insika.router.server.proxy;

import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;

import io.helidon.http.Header;
import io.helidon.http.HeaderName;
import io.helidon.http.HeaderNames;
import io.helidon.http.Headers;

/**
 * The headers that describe one connection rather than the message (RFC 9110, section 7.6.1),
 * which a proxy must not forward in either direction.
 */
final class HopByHopHeaders {

    // Keep-Alive, Proxy-Connection and Trailer are not in RFC 9110's list but are hop-by-hop in
    // practice (RFC 2616, section 13.5.1); Expect is answered by our own server. Compared by
    // lower-case name because Helidon's HeaderName equality depends on how the name was made.
    private static final Set<String> ALWAYS = Set.of(
            "connection", "keep-alive", "proxy-connection", "te", "trailer", "transfer-encoding", "upgrade",
            "expect");

    private static final HopByHopHeaders FIXED = new HopByHopHeaders(Set.of(), false);
    private static final Set<String> UPGRADE_HANDSHAKE = Set.of("connection", "upgrade");

    private final Set<String> named;
    private final boolean keepUpgrade;

    private HopByHopHeaders(Set<String> named, boolean keepUpgrade) {
        this.named = named;
        this.keepUpgrade = keepUpgrade;
    }

    /**
     * The hop-by-hop headers of an upgrade request, less {@code Connection} and {@code Upgrade}:
     * a tunnel hands the handshake to the backend, which must see both to agree to it.
     */
    static HopByHopHeaders ofUpgrade(Headers headers) {
        return new HopByHopHeaders(of(headers).named, true);
    }

    /** Like {@link #ofUpgrade(Headers)}, for the backend's answer to an upgrade. */
    static HopByHopHeaders ofUpgrade(List<Header> headers) {
        return new HopByHopHeaders(of(headers).named, true);
    }

    /** The hop-by-hop headers of one message: the fixed ones plus those its Connection header names. */
    static HopByHopHeaders of(Headers headers) {
        if (!headers.contains(HeaderNames.CONNECTION)) {
            return FIXED;
        }
        Set<String> named = addTokens(headers.get(HeaderNames.CONNECTION).allValues(), null);
        return named == null ? FIXED : new HopByHopHeaders(named, false);
    }

    /** The hop-by-hop headers of a backend's answer, from its header fields as received. */
    static HopByHopHeaders of(List<Header> headers) {
        Set<String> named = null;
        for (int i = 0; i < headers.size(); i++) {
            Header header = headers.get(i);
            if (header.headerName().equals(HeaderNames.CONNECTION)) {
                named = addTokens(header.allValues(), named);
            }
        }
        return named == null ? FIXED : new HopByHopHeaders(named, false);
    }

    // Tokens that name a field excluded anyway (keep-alive, nearly every answer's one token)
    // are left out, so such a message shares FIXED; the set is made for the first other one.
    private static Set<String> addTokens(List<String> values, Set<String> named) {
        for (String value : values) {
            int from = 0;
            while (from <= value.length()) {
                int comma = value.indexOf(',', from);
                int end = comma < 0 ? value.length() : comma;
                String name = value.substring(from, end).trim().toLowerCase(Locale.ROOT);
                if (!name.isEmpty() && !ALWAYS.contains(name)) {
                    named = named == null ? new HashSet<>() : named;
                    named.add(name);
                }
                from = end + 1;
            }
        }
        return named;
    }

    /** Whether the message's {@code Connection} header named this one. */
    boolean names(HeaderName name) {
        return named.contains(name.lowerCase());
    }

    boolean excludes(Header header) {
        String name = header.headerName().lowerCase();
        if (keepUpgrade && UPGRADE_HANDSHAKE.contains(name)) {
            return false;
        }
        return ALWAYS.contains(name) || named.contains(name);
    }
}
