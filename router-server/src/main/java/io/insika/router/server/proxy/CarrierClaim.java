package io.insika.router.server.proxy;

import java.util.List;
import java.util.Optional;

import io.helidon.http.Header;
import io.helidon.http.HeaderName;
import io.helidon.http.ServerRequestHeaders;
import io.insika.router.server.routing.LearnSpec;
import io.insika.router.server.session.SessionSeal;

/**
 * What one request sent in one learned carrier, and, when it is a value this router sealed,
 * what the backend gets in its place.
 *
 * @param spec    the carrier
 * @param kind    absent, sealed, broken or sent twice
 * @param ownerId the backend a {@link Kind#SEALED} value names, else {@code null}
 * @param original the value that backend minted, of a {@link Kind#SEALED} value, else {@code null}
 * @param cookie  where a sealed cookie's value lies in its {@code Cookie} field, else {@code null}
 */
record CarrierClaim(LearnSpec spec, Kind kind, String ownerId, String original, CookieValue cookie) {

    /** What a request's carrier held. */
    enum Kind {
        /** Nothing, or blank: a session starting. */
        ABSENT,
        /** A value this router's secret sealed. */
        SEALED,
        /** A value that is not: forged, cut, another version, too long. */
        BROKEN,
        /**
         * The carrier twice, or spelled with {@code _} for {@code -}: WSGI, CGI and PHP servers
         * read {@code Mcp_Session_Id} as {@code Mcp-Session-Id}, so that spelling would reach
         * them as the session unchecked.
         */
        DUPLICATE
    }

    /** A header carrier, looked up by its name in any case. */
    static CarrierClaim header(LearnSpec spec, HeaderName name, SessionSeal seal,
                               ServerRequestHeaders headers) {
        if (spelledWithUnderscores(name, headers)) {
            return of(spec, Kind.DUPLICATE);
        }
        Optional<Header> carrier = headers.find(name);
        if (carrier.isEmpty()) {
            return of(spec, Kind.ABSENT);
        }
        if (carrier.get().valueCount() != 1) {
            return of(spec, Kind.DUPLICATE);
        }
        String value = carrier.get().get().strip();
        if (value.isEmpty()) {
            return of(spec, Kind.ABSENT);
        }
        return seal.open(value)
                .map(opened -> new CarrierClaim(spec, Kind.SEALED, opened.ownerId(), opened.original(), null))
                .orElseGet(() -> of(spec, Kind.BROKEN));
    }

    /**
     * A cookie carrier among a request's cookie pairs: its name in any case, so that a server
     * reading names without case never gets a second, unchecked spelling.
     */
    static CarrierClaim cookie(LearnSpec spec, SessionSeal seal, List<CookieValue> pairs) {
        CookieValue found = null;
        for (CookieValue pair : pairs) {
            if (pair.name().equalsIgnoreCase(spec.name())) {
                if (found != null) {
                    return of(spec, Kind.DUPLICATE);
                }
                found = pair;
            }
        }
        if (found == null || found.value().isEmpty()) {
            return of(spec, Kind.ABSENT);
        }
        CookieValue cookie = found;
        return seal.open(cookie.value()).filter(opened -> CookieValue.octets(opened.original()))
                .map(opened -> new CarrierClaim(spec, Kind.SEALED, opened.ownerId(), opened.original(), cookie))
                .orElseGet(() -> of(spec, Kind.BROKEN));
    }

    // Another field whose name is the carrier's once '_' and '-' are one character
    private static boolean spelledWithUnderscores(HeaderName name, ServerRequestHeaders headers) {
        String carrier = name.lowerCase();
        for (Header header : headers) {
            String other = header.headerName().lowerCase();
            if (other.length() == carrier.length() && !other.equals(carrier) && other.indexOf('_') >= 0
                    && other.replace('_', '-').equals(carrier.replace('_', '-'))) {
                return true;
            }
        }
        return false;
    }

    private static CarrierClaim of(LearnSpec spec, Kind kind) {
        return new CarrierClaim(spec, kind, null, null, null);
    }

    /** Whether this claim alone refuses its request: sent twice, or broken where broken is refused. */
    boolean refuses() {
        return kind == Kind.DUPLICATE || kind == Kind.BROKEN && spec.badSeal() == LearnSpec.BadSeal.REJECT;
    }
}
