package io.insika.router.server.proxy;

import java.io.IOException;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;

import io.helidon.http.Header;
import io.insika.router.server.routing.LearnSpec;
import io.insika.router.server.upstream.RequestWriter;

/**
 * The learned carriers (the keys backends mint, {@code learn}) on one request, whatever its path
 * or route: what the client sent in each, the fields its backend gets instead, and the sealing of
 * every carrier its answer sets. A carrier is the router's, not a route's: a forged id on a path
 * no route matches is checked as on the route, and an id a backend mints on any path reaches
 * the client sealed. A router that learns nothing gives every request {@link #NONE}.
 *
 * <p>A carrier may appear once: a second {@code Mcp-Session-Id} field, or the cookie named twice
 * (in any case, after {@code ;} or {@code ,}), is {@link CarrierClaim.Kind#DUPLICATE} and
 * refused whatever the route says of bad seals, so the value the router checks is always the one
 * the backend gets. The backend gets the original value in that one field, never the seal.
 */
final class SessionCarrier {

    /** The carriers of a request to a router that learns nothing. */
    static final SessionCarrier NONE = new SessionCarrier(LearnedCarriers.NONE, List.of());

    private static final String SET_COOKIE = "set-cookie";
    private static final String COOKIE = "cookie";

    private final LearnedCarriers carriers;
    // the carriers this request sent, the route's own first, then in the routes' order
    private final List<CarrierClaim> claims;

    SessionCarrier(LearnedCarriers carriers, List<CarrierClaim> claims) {
        this.carriers = carriers;
        this.claims = claims;
    }

    /** The first carrier that refuses the request: sent twice, or broken where that is refused. */
    Optional<CarrierClaim> refusal() {
        for (CarrierClaim claim : claims) {
            if (claim.refuses()) {
                return Optional.of(claim);
            }
        }
        return Optional.empty();
    }

    /** The sealed carrier that places the request: the route's own if sealed, else the first. */
    Optional<CarrierClaim> sealed() {
        for (CarrierClaim claim : claims) {
            if (claim.kind() == CarrierClaim.Kind.SEALED) {
                return Optional.of(claim);
            }
        }
        return Optional.empty();
    }

    /** What the request sent in this carrier. */
    CarrierClaim.Kind kind(LearnSpec spec) {
        for (CarrierClaim claim : claims) {
            if (claim.spec().sameCarrier(spec)) {
                return claim.kind();
            }
        }
        return CarrierClaim.Kind.ABSENT;
    }

    /** The status a request whose sealed owner is gone is answered with: its carrier's to say. */
    int unknownOwnerStatus() {
        return sealed().map(claim -> claim.spec().unknownOwnerStatus()).orElse(LearnSpec.DEFAULT_UNKNOWN_OWNER_STATUS);
    }

    /** Whether this request field holds a sealed carrier, written to the backend by {@link #forward} instead. */
    boolean replaces(Header header) {
        String name = header.headerName().lowerCase();
        for (CarrierClaim claim : claims) {
            if (claim.kind() == CarrierClaim.Kind.SEALED && isRequestField(claim.spec(), name)) {
                return true;
            }
        }
        return false;
    }

    /** Writes a field {@link #replaces} named, each sealed value in it replaced by its original. */
    void forward(Header header, RequestWriter out) {
        String name = header.headerName().defaultCase();
        if (!header.headerName().lowerCase().equals(COOKIE)) {
            out.header(name, claims.stream().filter(claim -> claim.kind() == CarrierClaim.Kind.SEALED
                            && claim.spec().carrier() == LearnSpec.Carrier.HEADER
                            && claim.spec().name().equalsIgnoreCase(name))
                    .findFirst().orElseThrow().original());
            return;
        }
        List<String> values = header.allValues();
        for (int i = 0; i < values.size(); i++) {
            out.header(name, restored(values.get(i), i));
        }
    }

    // One Cookie field with each sealed carrier in it restored, from its end so that the places
    // of those before stay true.
    private String restored(String field, int index) {
        List<CarrierClaim> inField = new ArrayList<>(2);
        for (CarrierClaim claim : claims) {
            if (claim.kind() == CarrierClaim.Kind.SEALED && claim.cookie() != null && claim.cookie().field() == index) {
                inField.add(claim);
            }
        }
        inField.sort(Comparator.comparingInt((CarrierClaim claim) -> claim.cookie().start()).reversed());
        String text = field;
        for (CarrierClaim claim : inField) {
            text = claim.cookie().replaced(text, claim.original());
        }
        return text;
    }

    /** Whether answer fields of this (lower-case) name may set a carrier, so that they are sealed. */
    boolean seals(String name) {
        return carriers.setBy(name);
    }

    /**
     * The values of every field line of this (carrier) name in an answer's head, in order, each
     * sealed as {@link #sealAnswer(String, List, String)} seals them.
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
        return sealAnswer(name, values, ownerId);
    }

    /**
     * The answer's values of a carrier field, each value that sets a carrier sealed with the id of
     * the backend that answered. An empty value (a cookie being deleted) passes as it is: it
     * names no session.
     *
     * @param name    the field's lower-case name: a header carrier's, or {@code set-cookie}
     * @param ownerId the backend that answered: it minted what it set, whichever owner the
     *                request's own seal named
     * @throws Unsealable if a value cannot be sealed: the answer is refused with 502, since a
     *                    client given it unsealed could not come back to its session
     */
    List<String> sealAnswer(String name, List<String> values, String ownerId) throws Unsealable {
        if (!name.equals(SET_COOKIE)) {
            LearnSpec spec = carriers.header(name).orElseThrow();
            if (values.size() != 1) {
                throw new Unsealable("the backend set " + spec.name() + " " + values.size() + " times");
            }
            String value = values.getFirst().strip();
            return value.isEmpty() ? values : List.of(sealed(spec, ownerId, value));
        }
        List<String> sealed = new ArrayList<>(values.size());
        for (String value : values) {
            sealed.add(sealCookie(value, ownerId));
        }
        return sealed;
    }

    // A Set-Cookie sets its first pair; what follows are attributes. A carrier named after a
    // comma would be a cookie of its own to a client that splits there: refused, never relayed.
    private String sealCookie(String value, String ownerId) throws Unsealable {
        for (String name : CookieValue.namesAfterCommas(value)) {
            Optional<LearnSpec> named = carriers.cookie(name);
            if (named.isPresent()) {
                throw new Unsealable("the backend set cookie " + named.get().name() + " after a comma in a"
                        + " Set-Cookie field");
            }
        }
        CookieValue first = CookieValue.first(value).orElse(null);
        Optional<LearnSpec> spec = first == null ? Optional.empty() : carriers.cookie(first.name());
        if (spec.isEmpty() || first.value().isEmpty()) {
            return value;
        }
        if (!CookieValue.octets(first.value())) {
            throw new Unsealable("the backend set cookie " + spec.get().name() + " to a value that is not"
                    + " cookie-octets");
        }
        return first.replaced(value, sealed(spec.get(), ownerId, first.value()));
    }

    private String sealed(LearnSpec spec, String ownerId, String value) throws Unsealable {
        try {
            return carriers.seal().seal(ownerId, value);
        } catch (IllegalArgumentException e) {
            throw new Unsealable("the backend set " + spec.name() + " to a value the router cannot seal: "
                    + e.getMessage());
        }
    }

    private static boolean isRequestField(LearnSpec spec, String lowerCaseName) {
        return spec.carrier() == LearnSpec.Carrier.HEADER ? spec.name().equalsIgnoreCase(lowerCaseName)
                : lowerCaseName.equals(COOKIE);
    }

    /** A carrier value in a backend's answer that cannot be sealed. */
    static final class Unsealable extends IOException {
        Unsealable(String message) {
            super(message);
        }
    }
}
