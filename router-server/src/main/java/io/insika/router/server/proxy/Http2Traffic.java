package io.insika.router.server.proxy;

import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLongArray;
import java.util.concurrent.atomic.LongAdder;
import java.util.function.LongSupplier;

/**
 * What the proxy port's HTTP/2 connections did, from the frames their {@link Http2ReceiveWindow}s
 * see go by: connections served, streams clients opened and reset, and the GOAWAYs the router sent
 * by error code. A rapid-reset attack shows as resets near the streams and GOAWAYs with
 * {@code ENHANCE_YOUR_CALM}; a client that ignores flow control as {@code FLOW_CONTROL_ERROR}.
 */
public final class Http2Traffic {

    // RFC 9113, section 7: the codes a GOAWAY of Helidon's carries; any other counts as "other"
    private static final String[] ERRORS = {"NO_ERROR", "PROTOCOL_ERROR", "INTERNAL_ERROR", "FLOW_CONTROL_ERROR",
        "SETTINGS_TIMEOUT", "STREAM_CLOSED", "FRAME_SIZE_ERROR", "REFUSED_STREAM", "CANCEL", "COMPRESSION_ERROR",
        "CONNECT_ERROR", "ENHANCE_YOUR_CALM", "INADEQUATE_SECURITY", "HTTP_1_1_REQUIRED"};

    private final LongAdder connections = new LongAdder();
    private final LongAdder streams = new LongAdder();
    private final LongAdder resets = new LongAdder();
    private final AtomicLongArray goaways = new AtomicLongArray(ERRORS.length + 1);

    /** Connections served: past the connection limit, one that is closed at once is not. */
    public long connections() {
        return connections.sum();
    }

    /** Streams clients opened. */
    public long streams() {
        return streams.sum();
    }

    /** Streams clients reset ({@code RST_STREAM}). */
    public long resets() {
        return resets.sum();
    }

    /** GOAWAYs sent, by error code name, {@code other} last: each series a metric's label. */
    public Map<String, LongSupplier> goaways() {
        Map<String, LongSupplier> byError = new LinkedHashMap<>();
        for (int i = 0; i <= ERRORS.length; i++) {
            int code = i;
            byError.put(i < ERRORS.length ? ERRORS[i] : "other", () -> goaways.get(code));
        }
        return byError;
    }

    void connection() {
        connections.increment();
    }

    void stream() {
        streams.increment();
    }

    void reset() {
        resets.increment();
    }

    void goaway(long errorCode) {
        goaways.incrementAndGet(errorCode >= 0 && errorCode < ERRORS.length ? (int) errorCode : ERRORS.length);
    }
}
