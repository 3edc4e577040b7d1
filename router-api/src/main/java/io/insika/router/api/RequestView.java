package io.insika.router.api;

import java.util.List;
import java.util.Optional;

/**
 * The read-only view of one incoming request that a {@link KeyExtractor} reads.
 *
 * <p>A view is valid only during the call to {@link KeyExtractor#extract(RequestView)} and only
 * on the calling thread. Nothing an extractor does through it changes what is forwarded: body
 * bytes it reads are replayed to the backend, byte for byte.
 */
public interface RequestView {

    /**
     * The request method, upper case as sent, such as {@code POST}.
     *
     * @return the method
     */
    String method();

    /**
     * The request path as its backend is sent it, without the query: still percent-encoded, in
     * the normal form routes match (unreserved characters decoded, repeated slashes merged, dot
     * segments removed; {@link PathTemplate}). A path that needed none of that is as sent.
     *
     * @return the raw path, starting with {@code /}
     */
    String rawPath();

    /**
     * A parameter the route's {@link PathTemplate} captured, percent-decoded.
     *
     * @param name the parameter's name in the template, such as {@code id} for
     *             {@code /channels/{id}/messages}
     * @return its value, or empty if the route has no such parameter
     */
    Optional<String> pathParameter(String name);

    /**
     * The first value of a header.
     *
     * @param name the header name, matched case-insensitively
     * @return the first value, or empty if the header is absent
     */
    Optional<String> header(String name);

    /**
     * Every value of a header, in the order received.
     *
     * @param name the header name, matched case-insensitively
     * @return the values; empty if the header is absent
     */
    List<String> headerValues(String name);

    /**
     * The first value of a query parameter, percent-decoded.
     *
     * @param name the parameter name, matched exactly
     * @return its first value ({@code ""} for {@code ?name} or {@code ?name=}), or empty if absent
     */
    Optional<String> queryParameter(String name);

    /**
     * The value of a cookie from the {@code Cookie} header(s).
     *
     * @param name the cookie name, matched exactly
     * @return the value of its first occurrence, without surrounding quotes, or empty if absent
     */
    Optional<String> cookie(String name);

    /**
     * The beginning of the request body, read lazily: no byte is read from the client until an
     * extractor asks.
     *
     * @return the body prefix
     */
    BodyPrefix body();
}
