package io.insika.router.server.proxy;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.Set;
import java.util.stream.Collectors;

import io.helidon.http.HeaderName;
import io.helidon.http.HeaderNames;
import io.helidon.http.ServerRequestHeaders;
import io.insika.router.server.routing.LearnSpec;
import io.insika.router.server.session.SessionSeal;

/**
 * The carriers of the keys backends mint, as the whole router knows them: every request is read
 * for each ({@link #read}), whatever its path, and every answer that sets one is sealed
 * ({@link SessionCarrier}). Built once per configuration; immutable.
 */
final class LearnedCarriers {

    /** A router that learns nothing: its requests carry {@link SessionCarrier#NONE}. */
    static final LearnedCarriers NONE = new LearnedCarriers(List.of(), SessionSeal.NONE);

    private static final String SET_COOKIE = "set-cookie";

    private final List<LearnSpec> specs;
    private final List<HeaderName> headerNames;
    private final SessionSeal seal;
    // the answer fields that may set a carrier, lower case
    private final Set<String> answerFields;

    /**
     * @param specs the carriers, one each ({@code RouteTable#learnedCarriers})
     * @param seal  seals and opens their values
     */
    LearnedCarriers(List<LearnSpec> specs, SessionSeal seal) {
        this.specs = List.copyOf(specs);
        this.headerNames = this.specs.stream().map(spec -> HeaderNames.create(spec.name())).toList();
        this.seal = seal;
        this.answerFields = this.specs.stream().map(spec -> spec.carrier() == LearnSpec.Carrier.HEADER
                ? spec.name().toLowerCase(Locale.ROOT) : SET_COOKIE).collect(Collectors.toUnmodifiableSet());
    }

    /**
     * Reads every carrier of a request and opens their seals.
     *
     * @param own the carrier of the route the request matched, if that route learns one: it
     *            comes first when the request is placed by a seal
     */
    SessionCarrier read(ServerRequestHeaders headers, Optional<LearnSpec> own) {
        if (specs.isEmpty()) {
            return SessionCarrier.NONE;
        }
        List<CookieValue> cookies = null;
        List<CarrierClaim> claims = new ArrayList<>(2);
        for (int i = 0; i < specs.size(); i++) {
            LearnSpec spec = specs.get(i);
            CarrierClaim claim;
            if (spec.carrier() == LearnSpec.Carrier.HEADER) {
                claim = CarrierClaim.header(spec, headerNames.get(i), seal, headers);
            } else {
                cookies = cookies != null ? cookies : cookiePairs(headers);
                claim = CarrierClaim.cookie(spec, seal, cookies);
            }
            if (claim.kind() != CarrierClaim.Kind.ABSENT) {
                if (own.isPresent() && own.get().sameCarrier(spec)) {
                    claims.addFirst(claim);
                } else {
                    claims.add(claim);
                }
            }
        }
        return new SessionCarrier(this, List.copyOf(claims));
    }

    private static List<CookieValue> cookiePairs(ServerRequestHeaders headers) {
        if (!headers.contains(HeaderNames.COOKIE)) {
            return List.of();
        }
        List<String> fields = headers.get(HeaderNames.COOKIE).allValues();
        List<CookieValue> pairs = new ArrayList<>();
        for (int i = 0; i < fields.size(); i++) {
            pairs.addAll(CookieValue.all(fields.get(i), i));
        }
        return pairs;
    }

    /** Whether answer fields of this lower-case name may set a carrier. */
    boolean setBy(String answerField) {
        return answerFields.contains(answerField);
    }

    /** The header carrier of this name, in any case. */
    Optional<LearnSpec> header(String name) {
        return find(LearnSpec.Carrier.HEADER, name);
    }

    /** The cookie carrier of this name, in any case. */
    Optional<LearnSpec> cookie(String name) {
        return find(LearnSpec.Carrier.COOKIE, name);
    }

    private Optional<LearnSpec> find(LearnSpec.Carrier carrier, String name) {
        for (LearnSpec spec : specs) {
            if (spec.carrier() == carrier && spec.name().equalsIgnoreCase(name)) {
                return Optional.of(spec);
            }
        }
        return Optional.empty();
    }

    SessionSeal seal() {
        return seal;
    }
}
