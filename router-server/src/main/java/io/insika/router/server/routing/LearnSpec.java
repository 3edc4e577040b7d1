package io.insika.router.server.routing;

import java.util.Locale;
import java.util.Objects;
import java.util.Optional;

/**
 * A route whose key the backend mints ({@code learn}): the carrier the backend sets in its
 * answer and the client sends back, the answer for a session whose backend is gone, and what a
 * value with a broken seal gets.
 *
 * @param carrier            a response and request header, or a cookie ({@code Set-Cookie} and {@code Cookie})
 * @param name               the header's name or the cookie's; either is recognised in any case
 * @param unknownOwnerStatus the status when the sealed owner is no longer a backend; 404 by
 *                           default, what MCP clients take as "initialize again"
 * @param badSeal            a value that is not one the router sealed: refused with 400, or
 *                           placed as if it had no key
 */
public record LearnSpec(Carrier carrier, String name, int unknownOwnerStatus, BadSeal badSeal) {

    /** The status MCP's Streamable HTTP transport answers for a session it does not know. */
    public static final int DEFAULT_UNKNOWN_OWNER_STATUS = 404;

    /** Where the key rides. */
    public enum Carrier {
        HEADER, COOKIE;

        /** The YAML word. */
        public String label() {
            return name().toLowerCase(Locale.ROOT);
        }
    }

    /** The {@code bad-seal} values. */
    public enum BadSeal {
        REJECT, NO_KEY;

        /** The YAML word. */
        public String label() {
            return name().toLowerCase(Locale.ROOT).replace('_', '-');
        }

        /** The value a YAML word names. */
        public static Optional<BadSeal> of(String word) {
            for (BadSeal value : values()) {
                if (value.label().equals(word)) {
                    return Optional.of(value);
                }
            }
            return Optional.empty();
        }
    }

    public LearnSpec {
        Objects.requireNonNull(carrier, "carrier");
        Objects.requireNonNull(name, "name");
        Objects.requireNonNull(badSeal, "badSeal");
        if (unknownOwnerStatus < 400 || unknownOwnerStatus > 599) {
            throw new IllegalArgumentException("unknown-owner-status: [" + unknownOwnerStatus + "] (expected: 400 to 599)");
        }
    }

    /** A header carrier with the defaults: 404 for a gone owner, 400 for a broken seal. */
    public static LearnSpec header(String name) {
        return new LearnSpec(Carrier.HEADER, name, DEFAULT_UNKNOWN_OWNER_STATUS, BadSeal.REJECT);
    }

    /** A cookie carrier with the defaults: 404 for a gone owner, 400 for a broken seal. */
    public static LearnSpec cookie(String name) {
        return new LearnSpec(Carrier.COOKIE, name, DEFAULT_UNKNOWN_OWNER_STATUS, BadSeal.REJECT);
    }

    /**
     * Whether the two name one carrier: both headers or both cookies, names equal in any case.
     * A cookie name is case-sensitive (RFC 6265), but servers that read it without case exist,
     * so {@code sessionid} must not pass unchecked where {@code SESSIONID} is learned.
     */
    public boolean sameCarrier(LearnSpec other) {
        return carrier == other.carrier && name.equalsIgnoreCase(other.name);
    }

    @Override
    public String toString() {
        return "learned " + carrier.label() + " " + name;
    }
}
