package io.insika.router.server.metrics;

/** Why a request got no complete answer from its backend; the {@code error} label's values. */
public enum BackendError {

    /** Refused, connect timeout or unresolvable: the retryable 503 envelope, nothing was sent. */
    UNREACHABLE("unreachable"),
    /** The backend took the request and stayed silent past backend-timeout: 504. */
    TIMEOUT("timeout"),
    /** The backend took the request and failed before a valid response head: 502. */
    FAILED("failed"),
    /** The backend failed after its answer had started: the client connection was cut. */
    BROKEN("broken"),
    /** The pool was empty: the 503 envelope. Counted under {@code backend="(none)"}. */
    NO_BACKEND("no-backend");

    private final String label;

    BackendError(String label) {
        this.label = label;
    }

    /** The value of the {@code error} label. */
    public String label() {
        return label;
    }
}
