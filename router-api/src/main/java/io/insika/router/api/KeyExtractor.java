package io.insika.router.api;

import java.util.Optional;

/**
 * Finds a request's session key: in a header, the query, a cookie, the path or the body.
 *
 * <p>Extractors are immutable and thread-safe, and are called on every request that matches
 * their route. {@link #extract(RequestView)} must never throw, block on anything but reading the
 * request body, or keep a reference to the request: on any input it cannot read (malformed,
 * truncated, huge, hostile) it returns {@link Optional#empty()} and the router falls back to
 * round-robin.
 */
public interface KeyExtractor {

    /**
     * The key of one request.
     *
     * @param request a read-only view of the request
     * @return the key, or empty when the request carries none this extractor can read
     */
    Optional<String> extract(RequestView request);

    /**
     * Whether {@link #extract(RequestView)} reads {@link RequestView#body()}. The router reads
     * body bytes ahead of forwarding only for extractors that say so; one that says {@code false}
     * sees an empty body.
     *
     * @return {@code true} if this extractor reads the body
     */
    default boolean needsBody() {
        return false;
    }
}
