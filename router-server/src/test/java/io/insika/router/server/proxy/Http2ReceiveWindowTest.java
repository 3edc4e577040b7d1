package io.insika.router.server.proxy;

import java.io.ByteArrayOutputStream;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;

import io.helidon.common.buffers.BufferData;
import io.helidon.http.http2.Http2ErrorCode;
import io.helidon.http.http2.Http2Exception;
import org.junit.jupiter.api.Test;

import static org.hamcrest.MatcherAssert.assertThat;
import static org.hamcrest.Matchers.is;
import static org.junit.jupiter.api.Assertions.assertThrows;

/** The connection's flow-control window, and the frames counted, as the bytes of both directions show them. */
class Http2ReceiveWindowTest {

    private static final byte[] PREFACE = "PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n".getBytes(StandardCharsets.US_ASCII);
    private static final int DATA = 0x0;
    private static final int HEADERS = 0x1;
    private static final int RST_STREAM = 0x3;
    private static final int SETTINGS = 0x4;
    private static final int GOAWAY = 0x7;
    private static final int WINDOW_UPDATE = 0x8;
    private static final int ENHANCE_YOUR_CALM = 0xb;

    private final Http2Traffic traffic = new Http2Traffic();
    private final Http2ReceiveWindow window = new Http2ReceiveWindow(traffic);

    @Test
    void dataUpToTheInitialWindowIsLetThroughAndOneBytePastItEndsTheConnection() {
        window.received(concat(PREFACE, frame(SETTINGS, 0, new byte[0]), frame(HEADERS, 1, new byte[10]),
                frame(DATA, 1, new byte[16_384]), frame(DATA, 1, new byte[16_384]), frame(DATA, 1, new byte[16_384]),
                frame(DATA, 1, new byte[16_383])));
        assertThat(window.remaining(), is(0L));

        Http2Exception past = assertThrows(Http2Exception.class, () -> window.received(frame(DATA, 3, new byte[1])));
        assertThat(past.code(), is(Http2ErrorCode.FLOW_CONTROL));
    }

    @Test
    void whatTheRouterGrantsOnTheConnectionWidensItAndAStreamsGrantDoesNot() {
        window.received(concat(PREFACE, frame(DATA, 1, new byte[16_384])));
        window.sending(BufferData.create(concat(frame(WINDOW_UPDATE, 0, increment(10_000)),
                frame(WINDOW_UPDATE, 1, increment(50_000)), frame(HEADERS, 1, new byte[40]),
                frame(DATA, 1, new byte[1_000]))));

        assertThat(window.remaining(), is(65_535L + 10_000 - 16_384));
    }

    @Test
    void framesSplitAnywhereAcrossReadsAndWritesCountTheSame() {
        byte[] in = concat(PREFACE, frame(HEADERS, 1, new byte[7]), frame(DATA, 1, new byte[5_000]),
                frame(DATA, 1, new byte[3]));
        byte[] out = concat(frame(SETTINGS, 0, new byte[6]), frame(DATA, 1, new byte[300]),
                frame(WINDOW_UPDATE, 0, increment(777)));
        for (byte b : in) {
            window.received(new byte[] {b});
        }
        for (byte b : out) {
            window.sending(BufferData.create(new byte[] {b}));
        }

        assertThat(window.remaining(), is(65_535L + 777 - 5_003));
    }

    @Test
    void streamsOpenedResetAndGoawaysSentAreCountedWhereverTheBytesSplit() {
        byte[] in = concat(PREFACE, frame(HEADERS, 1, new byte[7]), frame(HEADERS, 3, new byte[7]),
                frame(RST_STREAM, 3, new byte[4]), frame(DATA, 1, new byte[20]), frame(HEADERS, 1, new byte[3]),
                frame(HEADERS, 5, new byte[7]), frame(RST_STREAM, 5, new byte[4]));
        byte[] goaway = ByteBuffer.allocate(8 + 5).putInt(5).putInt(ENHANCE_YOUR_CALM).put(new byte[5]).array();
        byte[] out = concat(frame(GOAWAY, 0, goaway), frame(DATA, 1, new byte[30]),
                frame(GOAWAY, 0, ByteBuffer.allocate(8).putInt(5).putInt(0x7777).array()));
        for (byte b : in) {
            window.received(new byte[] {b});
        }
        for (byte b : out) {
            window.sending(BufferData.create(new byte[] {b}));
        }

        assertThat("a HEADERS on an open stream is its trailers", traffic.streams(), is(3L));
        assertThat(traffic.resets(), is(2L));
        assertThat(traffic.goaways().get("ENHANCE_YOUR_CALM").getAsLong(), is(1L));
        assertThat(traffic.goaways().get("other").getAsLong(), is(1L));
        assertThat(traffic.goaways().get("NO_ERROR").getAsLong(), is(0L));
        assertThat("the debug data after the code is passed over", window.remaining(), is(65_535L - 20));
    }

    private static byte[] increment(int increment) {
        return ByteBuffer.allocate(4).putInt(increment).array();
    }

    private static byte[] frame(int type, int stream, byte[] payload) {
        return ByteBuffer.allocate(9 + payload.length)
                .put((byte) (payload.length >>> 16)).put((byte) (payload.length >>> 8)).put((byte) payload.length)
                .put((byte) type).put((byte) 0).putInt(stream).put(payload).array();
    }

    private static byte[] concat(byte[]... parts) {
        ByteArrayOutputStream all = new ByteArrayOutputStream();
        for (byte[] part : parts) {
            all.writeBytes(part);
        }
        return all.toByteArray();
    }
}
