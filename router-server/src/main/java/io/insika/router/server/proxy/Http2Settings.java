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
    /**
     * What the router runs with when nothing is configured: HTTP/2 off. Helidon 4.5's HTTP/2 server
     * reads a stream's DATA frames into the heap as they come and queues up to 32 of them per
     * stream (Http2ServerStream's inbound queue) until the stream's handler reads them, never
     * checking the flow-control window it announced: a client that ignores the window holds up to
     * ~512 KiB per open stream (ConnectionFloodTest measured ~120 KiB per connection holding a
     * 48 KB upload; a few hundred ended the shipped heap). Off, no client can; on, trust the clients.
     */
    public static final Http2Settings DEFAULTS = new Http2Settings(false, DEFAULT_MAX_CONCURRENT_STREAMS,
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
