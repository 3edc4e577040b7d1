package io.insika.router.server.proxy;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;

import io.helidon.http.Header;
import io.helidon.http.HeaderNames;
import io.helidon.http.ServerRequestHeaders;
import io.insika.router.server.routing.LearnSpec;
import io.insika.router.server.session.SessionSeal;
import io.insika.router.server.upstream.RequestWriter;

/**
 * The carrier of a key a backend mints (a route's {@code learn}) on one request: what the client
 * sent in it, the one field its backend gets instead, and the sealing of the value the answer
 * sets. Requests of other routes carry {@link #NONE}, which rewrites nothing.
 *
 * <p>The carrier may appear once: a second {@code Mcp-Session-Id} field, or the cookie named
 * twice, is {@link Claim#DUPLICATE} and refused whatever the route says of bad seals, so the
 * value the router checks is always the one the backend gets. The backend gets the original
 * value in that one field, never the seal.
 */
final class SessionCarrier {

    /** The carrier of a request on a route that learns nothing. */
    static final SessionCarrier NONE = new SessionCarrier(null, SessionSeal.NONE, Claim.ABSENT, null, null, -1, null);

    /** What a request's carrier held. */
    enum Claim {
        /** Nothing, or blank: a session starting. */
        ABSENT,
        /** A value this router's secret sealed. */
        SEALED,
        /** A value that is not: forged, cut, another version, too long. */
        BROKEN,
        /** The carrier twice. */
        DUPLICATE
    }

    private static final String SET_COOKIE = "set-cookie";
    private static final String COOKIE = "cookie";

    private final LearnSpec spec;
    private final SessionSeal seal;
    private final Claim claim;
    private final String ownerId;
    private final String original;
    // the carrier field's index among its name's values, and what the backend gets in its place
    private final int field;
    private final String forwarded;

    private SessionCarrier(LearnSpec spec, SessionSeal seal, Claim claim, String ownerId, String original, int field,
                           String forwarded) {
        this.spec = spec;
        this.seal = seal;
        this.claim = claim;
        this.ownerId = ownerId;
        this.original = original;
        this.field = field;
        this.forwarded = forwarded;
    }

    /** Reads a request's carrier and opens its seal. */
    static SessionCarrier read(LearnSpec spec, SessionSeal seal, ServerRequestHeaders headers) {
        return spec.carrier() == LearnSpec.Carrier.HEADER ? readHeader(spec, seal, headers)
                : readCookie(spec, seal, headers);
    }

    private static SessionCarrier readHeader(LearnSpec spec, SessionSeal seal, ServerRequestHeaders headers) {
        Optional<Header> carrier = headers.find(HeaderNames.create(spec.name()));
        if (carrier.isEmpty()) {
            return of(spec, seal, Claim.ABSENT);
        }
        if (carrier.get().valueCount() != 1) {
            return of(spec, seal, Claim.DUPLICATE);
        }
        String value = carrier.get().get().strip();
        if (value.isEmpty()) {
            return of(spec, seal, Claim.ABSENT);
        }
        return seal.open(value)
                .map(opened -> new SessionCarrier(spec, seal, Claim.SEALED, opened.ownerId(), opened.original(), 0,
                        opened.original()))
                .orElseGet(() -> of(spec, seal, Claim.BROKEN));
    }

    private static SessionCarrier readCookie(LearnSpec spec, SessionSeal seal, ServerRequestHeaders headers) {
        if (!headers.contains(HeaderNames.COOKIE)) {
            return of(spec, seal, Claim.ABSENT);
        }
        List<String> fields = headers.get(HeaderNames.COOKIE).allValues();
        CookieValue found = null;
        for (int i = 0; i < fields.size(); i++) {
            for (CookieValue pair : CookieValue.all(fields.get(i), i)) {
                if (pair.name().equals(spec.name())) {
                    if (found != null) {
                        return of(spec, seal, Claim.DUPLICATE);
                    }
                    found = pair;
                }
            }
        }
        if (found == null || found.value().isEmpty()) {
            return of(spec, seal, Claim.ABSENT);
        }
        CookieValue cookie = found;
        return seal.open(cookie.value()).filter(opened -> CookieValue.octets(opened.original()))
                .map(opened -> new SessionCarrier(spec, seal, Claim.SEALED, opened.ownerId(), opened.original(),
                        cookie.field(), cookie.replaced(fields.get(cookie.field()), opened.original())))
                .orElseGet(() -> of(spec, seal, Claim.BROKEN));
    }

    private static SessionCarrier of(LearnSpec spec, SessionSeal seal, Claim claim) {
        return new SessionCarrier(spec, seal, claim, null, null, -1, null);
    }

    Claim claim() {
        return claim;
    }

    /** The route's carrier, or empty for {@link #NONE}. */
    Optional<LearnSpec> spec() {
        return Optional.ofNullable(spec);
    }

    /** The owner a {@link Claim#SEALED} value names. */
    String ownerId() {
        return ownerId;
    }

    /** The value the backend minted, of a {@link Claim#SEALED} request: its session key. */
    String original() {
        return original;
    }

    /** The status a request whose sealed owner is gone is answered with. */
    int unknownOwnerStatus() {
        return spec == null ? LearnSpec.DEFAULT_UNKNOWN_OWNER_STATUS : spec.unknownOwnerStatus();
    }

    /** Whether this request field is the carrier, written to the backend by {@link #forward} instead. */
    boolean replaces(Header header) {
        return forwarded != null && header.headerName().lowerCase().equals(requestField());
    }

    /** Writes the carrier field with the original value in place of the sealed one. */
    void forward(Header header, RequestWriter out) {
        String name = header.headerName().defaultCase();
        List<String> values = header.allValues();
        for (int i = 0; i < values.size(); i++) {
            out.header(name, i == field ? forwarded : values.get(i));
        }
    }

    /** Whether answer fields of this (lower-case) name may set the carrier, so that they are sealed. */
    boolean seals(String name) {
        return spec != null && name.equals(spec.carrier() == LearnSpec.Carrier.HEADER
                ? spec.name().toLowerCase(Locale.ROOT) : SET_COOKIE);
    }

    /**
     * The values of every field line of this (carrier) name in an answer's head, in order, each
     * sealed as {@link #sealAnswer} seals them.
     *
     * @param head    the answer's field lines, one per line received
     * @param name    the carrier field's lower-case name
     * @param ownerId the backend that answered
     */
    List<String> sealAnswer(List<Header> head, String name, String ownerId) throws Unsealable {
        List<String> values = new ArrayList<>();
        for (Header line : head) {
            if (line.headerName().lowerCase().equals(name)) {
                values.add(line.get());
            }
        }
        return sealAnswer(values, ownerId);
    }

    /**
     * The answer's values of a carrier field, each value the backend set sealed with its id. An
     * empty value (a cookie being deleted) passes as it is: it names no session.
     *
     * @param ownerId the backend that answered: it minted what it set, whichever owner the
     *                request's own seal named
     * @throws Unsealable if a value cannot be sealed: the answer is refused with 502, since a
     *                    client given it unsealed could not come back to its session
     */
    List<String> sealAnswer(List<String> values, String ownerId) throws Unsealable {
        if (spec.carrier() == LearnSpec.Carrier.HEADER) {
            if (values.size() != 1) {
                throw new Unsealable("the backend set " + spec.name() + " " + values.size() + " times");
            }
            String value = values.getFirst().strip();
            return value.isEmpty() ? values : List.of(sealed(ownerId, value));
        }
        List<String> sealed = new ArrayList<>(values.size());
        for (String value : values) {
            CookieValue first = CookieValue.first(value).orElse(null);
            if (first == null || !first.name().equals(spec.name()) || first.value().isEmpty()) {
                sealed.add(value);
                continue;
            }
            if (!CookieValue.octets(first.value())) {
                throw new Unsealable("the backend set cookie " + spec.name() + " to a value that is not cookie-octets");
            }
            sealed.add(first.replaced(value, sealed(ownerId, first.value())));
        }
        return sealed;
    }

    private String sealed(String ownerId, String value) throws Unsealable {
        try {
            return seal.seal(ownerId, value);
        } catch (IllegalArgumentException e) {
            throw new Unsealable("the backend set " + spec.name() + " to a value the router cannot seal: "
                    + e.getMessage());
        }
    }

    private String requestField() {
        return spec.carrier() == LearnSpec.Carrier.HEADER ? spec.name().toLowerCase(Locale.ROOT) : COOKIE;
    }

    /** A carrier value in a backend's answer that cannot be sealed. */
    static final class Unsealable extends IOException {
        Unsealable(String message) {
            super(message);
        }
    }
}
