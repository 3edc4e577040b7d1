package io.insika.router.server.proxy;

import java.util.function.IntUnaryOperator;

import io.helidon.common.buffers.BufferData;
import io.helidon.http.http2.Http2ErrorCode;
import io.helidon.http.http2.Http2Exception;

/**
 * The connection-level flow-control window of one HTTP/2 connection, kept as the client must keep
 * it (RFC 9113, section 6.9): DATA beyond what the router has granted ends the connection with
 * {@code FLOW_CONTROL_ERROR}. Helidon 4.5 announces the window and never checks it: it queues each
 * stream's DATA in the heap until the stream's handler reads it, up to 32 frames per stream, so a
 * client that ignored the window held ~2.3 bytes of heap per byte it sent (ConnectionFloodTest).
 * Helidon grants more (a {@code WINDOW_UPDATE} on stream 0) only as handlers read, or as it drops
 * the DATA of closed streams: with the window kept, what one connection holds unread is at most
 * the window, 64 KiB unless {@code server.http2-initial-window-size} is larger.
 *
 * <p>Both directions are watched as bytes, frame headers only: the client's on their way to
 * Helidon's reader ({@link #received}), for the length of each DATA frame, and Helidon's on their
 * way to the socket ({@link #sending}), for its grants. A grant is counted before its frame
 * leaves, so a client can never rightly send against one not counted yet. The frames seen are
 * told to the port's {@link Http2Traffic} on the way.
 */
final class Http2ReceiveWindow {

    /** RFC 9113's initial window of every connection, which SETTINGS do not change. */
    static final int INITIAL = 65_535;
    private static final int PREFACE_LENGTH = 24;
    private static final int DATA = 0x0;
    private static final int HEADERS = 0x1;
    private static final int RST_STREAM = 0x3;
    private static final int GOAWAY = 0x7;
    private static final int WINDOW_UPDATE = 0x8;

    private final FrameHeaders inbound = new FrameHeaders(PREFACE_LENGTH, this::onInbound);
    private final FrameHeaders outbound = new FrameHeaders(0, this::onOutbound);
    private final Http2Traffic traffic;
    // the highest stream a client's HEADERS opened: a later HEADERS on it carries trailers;
    // read by the listener's idle check, which closes a connection that opened none in time
    private volatile int lastStream;
    // granted grows on whichever thread writes a frame, received on the reader's
    private volatile long granted = INITIAL;
    private long received;

    Http2ReceiveWindow(Http2Traffic traffic) {
        this.traffic = traffic;
    }

    /**
     * The client's bytes, before Helidon reads them.
     *
     * @throws Http2Exception {@code FLOW_CONTROL_ERROR} when DATA in them goes past the window
     */
    void received(byte[] bytes) {
        inbound.feed(i -> bytes[i], bytes.length);
    }

    /** Helidon's bytes, before they are written; the buffer is looked at, not read. */
    synchronized void sending(BufferData data) {
        outbound.feed(data::get, data.available());
    }

    /** Whether the client has opened a stream yet. */
    boolean streamOpened() {
        return lastStream > 0;
    }

    /** Bytes of DATA the client may still send on the connection. */
    long remaining() {
        return granted - received;
    }

    private void onInbound(int type, int stream, int length, long detail) {
        if (type == DATA) {
            received += length;
            if (received > granted) {
                throw new Http2Exception(Http2ErrorCode.FLOW_CONTROL, "DATA past the connection's flow-control window");
            }
        } else if (type == HEADERS && stream > lastStream) {
            lastStream = stream;
            traffic.stream();
        } else if (type == RST_STREAM) {
            traffic.reset();
        }
    }

    private void onOutbound(int type, int stream, int length, long detail) {
        if (type == WINDOW_UPDATE && stream == 0) {
            granted += detail;
        } else if (type == GOAWAY) {
            traffic.goaway(detail);
        }
    }

    /** What each frame's header says, found in a stream of bytes that comes in pieces of any size. */
    private static final class FrameHeaders {

        interface Frame {
            /**
             * A frame's header; {@code detail} is a {@code WINDOW_UPDATE}'s increment or a
             * {@code GOAWAY}'s error code, read from the payload's start, and 0 for any other frame.
             */
            void header(int type, int stream, int length, long detail);
        }

        private static final int HEADER = 9;
        // a WINDOW_UPDATE's increment is its payload; a GOAWAY's code follows its last stream id
        private static final int WINDOW_UPDATE_FRAME = HEADER + 4;
        private static final int GOAWAY_CODE = HEADER + 8;

        private final Frame frame;
        private final byte[] head = new byte[GOAWAY_CODE];
        private int filled;
        private int wanted = HEADER;
        // bytes to pass over: the preface, then each frame's payload
        private long skip;
        private int type;
        private int stream;
        private int length;

        FrameHeaders(int preface, Frame frame) {
            this.skip = preface;
            this.frame = frame;
        }

        void feed(IntUnaryOperator byteAt, int count) {
            int i = 0;
            while (i < count) {
                if (skip > 0) {
                    int passed = (int) Math.min(skip, count - i);
                    skip -= passed;
                    i += passed;
                    continue;
                }
                head[filled++] = (byte) byteAt.applyAsInt(i++);
                if (filled < wanted) {
                    continue;
                }
                if (wanted == HEADER) {
                    length = (head[0] & 0xff) << 16 | (head[1] & 0xff) << 8 | head[2] & 0xff;
                    type = head[3] & 0xff;
                    stream = (head[5] & 0x7f) << 24 | (head[6] & 0xff) << 16 | (head[7] & 0xff) << 8 | head[8] & 0xff;
                    if (type == WINDOW_UPDATE && length == 4) {
                        wanted = WINDOW_UPDATE_FRAME;
                        continue;
                    }
                    if (type == GOAWAY && length >= 8) {
                        wanted = GOAWAY_CODE;
                        continue;
                    }
                    skip = length;
                    frame.header(type, stream, length, 0);
                } else if (wanted == WINDOW_UPDATE_FRAME) {
                    frame.header(type, stream, length, word(9) & 0x7fffffffL);
                } else {
                    skip = length - 8; // the debug data
                    frame.header(type, stream, length, word(13) & 0xffffffffL);
                }
                filled = 0;
                wanted = HEADER;
            }
        }

        // the four bytes of the head from this index, big-endian
        private long word(int at) {
            return (head[at] & 0xffL) << 24 | (head[at + 1] & 0xff) << 16 | (head[at + 2] & 0xff) << 8
                    | head[at + 3] & 0xff;
        }
    }
}
