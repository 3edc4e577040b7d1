package io.insika.router.server.routing;

import java.util.Locale;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;

/**
 * What a route does with a keyed request, which always lands on the router and never on its
 * owner: proxy it there, or tell the client the owner's public address so that it goes
 * straight there next time ({@code on-miss}).
 *
 * @param mode         proxy, redirect, or auto (redirect only what is not a cross-origin browser)
 * @param origins      for auto: the {@code Origin}s that are redirected too (their owners must
 *                     allow them with CORS); exact, lower-cased {@code scheme://host[:port]}
 * @param maxRedirects a request that says it was redirected this many times already is proxied
 */
public record MissPolicy(Mode mode, Set<String> origins, int maxRedirects) {

    /** The {@code on-miss} values. */
    public enum Mode {
        PROXY, REDIRECT, AUTO;

        /** The YAML word. */
        public String label() {
            return name().toLowerCase(Locale.ROOT);
        }

        /** The mode a YAML word names. */
        public static Optional<Mode> of(String word) {
            for (Mode mode : values()) {
                if (mode.label().equals(word)) {
                    return Optional.of(mode);
                }
            }
            return Optional.empty();
        }
    }

    /** Redirect chains stop after two hops, as the seed's clients do. */
    public static final int DEFAULT_MAX_REDIRECTS = 2;
    /** Every keyed request is proxied to its owner: the default. */
    public static final MissPolicy PROXY = new MissPolicy(Mode.PROXY, Set.of(), DEFAULT_MAX_REDIRECTS);

    public MissPolicy {
        Objects.requireNonNull(mode, "mode");
        origins = Set.copyOf(origins);
        if (maxRedirects < 0) {
            throw new IllegalArgumentException("max-redirects: [" + maxRedirects + "] (expected: >= 0)");
        }
    }

    /**
     * Whether a request with this {@code Origin} may be redirected under this policy.
     *
     * @param origin the request's {@code Origin} header, if it has one
     */
    public boolean redirects(Optional<String> origin) {
        return switch (mode) {
            case PROXY -> false;
            case REDIRECT -> true;
            case AUTO -> origin.isEmpty() || origins.contains(origin.get().strip().toLowerCase(Locale.ROOT));
        };
    }
}
