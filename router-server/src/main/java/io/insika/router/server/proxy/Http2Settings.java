package io.insika.router.server.proxy;

/**
 * HTTP/2 on the proxy port ({@code server.http2*}): whether clients may speak it (ALPN {@code h2}
 * over TLS, prior knowledge on plain sockets), and the limits each connection announces in its
 * SETTINGS frame.
 *
 * @param enabled              whether the proxy port speaks HTTP/2
 * @param maxConcurrentStreams streams one connection may have open at once
 * @param maxHeaderListSize    the largest header list (RFC 9113, section 6.5.2) a request may carry
 * @param initialWindowSize    each stream's flow-control window for request bodies, in bytes
 */
public record Http2Settings(boolean enabled, int maxConcurrentStreams, int maxHeaderListSize, int initialWindowSize) {

    /** Browsers' and nginx's {@code http2_max_concurrent_streams} (128) are about the same. */
    public static final int DEFAULT_MAX_CONCURRENT_STREAMS = 100;
    /** Twice the lean HTTP/1 head (8 KiB): room for cookies, small enough for the memory budget. */
    public static final int DEFAULT_MAX_HEADER_LIST_SIZE = 16384;
    /** RFC 9113's own default: a stream's upload is read at most this far ahead of the backend. */
    public static final int DEFAULT_INITIAL_WINDOW_SIZE = 65535;
    /** What the router runs with when nothing is configured. */
    public static final Http2Settings DEFAULTS = new Http2Settings(true, DEFAULT_MAX_CONCURRENT_STREAMS,
            DEFAULT_MAX_HEADER_LIST_SIZE, DEFAULT_INITIAL_WINDOW_SIZE);

    public Http2Settings {
        if (maxConcurrentStreams < 1) {
            throw new IllegalArgumentException("maxConcurrentStreams: [" + maxConcurrentStreams + "] (expected: >= 1)");
        }
        if (maxHeaderListSize < 1024) {
            throw new IllegalArgumentException("maxHeaderListSize: [" + maxHeaderListSize + "] (expected: >= 1024)");
        }
        if (initialWindowSize < 1) {
            throw new IllegalArgumentException("initialWindowSize: [" + initialWindowSize + "] (expected: >= 1)");
        }
    }
}
