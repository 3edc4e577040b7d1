package io.insika.router.server.metrics;

/**
 * How a request found its backend: by its session key, or round-robin and why. A keyed route
 * whose requests keep arriving without a key is the one mistake a sticky proxy cannot see
 * from its answers (they all succeed, on scattered backends), so each reason is counted.
 */
public enum Placement {

    /** The key's owner. */
    KEY("key"),
    /** A keyed route, but the request had nothing to read a key from (no body, empty body). */
    NOTHING_TO_READ("no-key-source"),
    /** A keyed route; the key was absent, or the body was not JSON. */
    KEY_ABSENT("key-absent"),
    /** A keyed route; the body is longer than body-max-bytes and the key was not within it. */
    KEY_BEYOND_CAP("key-beyond-cap"),
    /**
     * A route whose key the backend mints ({@code learn}); the request carried none, so a
     * session starts: round-robin by design.
     */
    NEW_SESSION("new-session"),
    /** No route matched: round-robin by design. */
    NO_ROUTE("no-route");

    private final String label;

    Placement(String label) {
        this.label = label;
    }

    /** The value of the {@code placement} label. */
    public String label() {
        return label;
    }
}
