package io.insika.router.server.config;

import java.util.List;

/**
 * The configuration is invalid; the router does not start. Each problem is one line naming the
 * key (or environment variable), the value given and what would be valid, such as
 * {@code strategy.name: [ketamma] (known: ketama, rendezvous, round-robin)}.
 */
public final class ConfigException extends RuntimeException {

    private static final long serialVersionUID = 1L;

    private final List<String> problems;

    /**
     * @param problems one line each, in the order found; at least one
     */
    public ConfigException(List<String> problems) {
        super(String.join(System.lineSeparator(), problems));
        if (problems.isEmpty()) {
            throw new IllegalArgumentException("problems: [] (expected: at least one)");
        }
        this.problems = List.copyOf(problems);
    }

    /** Every problem found, one line each, in the order found. */
    public List<String> problems() {
        return problems;
    }
}
