package io.insika.router.server.backends;

/** Why a backend was not given a request: the {@code reason} label's values. */
public enum Refusal {

    /** It is marked down: a connect failed lately, or its health check fails. */
    DOWN("down"),
    /** Its {@code max-requests} were all in flight. */
    REQUESTS_FULL("requests-full"),
    /** Its {@code max-tunnels} were all open. */
    TUNNELS_FULL("tunnels-full");

    private final String label;

    Refusal(String label) {
        this.label = label;
    }

    /** The value of the {@code reason} label, and of the JSON of {@code /observe/backends}. */
    public String label() {
        return label;
    }
}
