package io.insika.router.server.testing;

import java.io.ByteArrayOutputStream;
import java.io.DataInputStream;
import java.io.EOFException;
import java.io.IOException;
import java.io.OutputStream;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;

import io.helidon.common.buffers.BufferData;
import io.helidon.http.http2.Http2FrameData;
import io.helidon.http.http2.Http2FrameHeader;
import io.helidon.http.http2.Http2Headers;
import io.helidon.http.http2.Http2HuffmanDecoder;

/**
 * A raw HTTP/2 client over a plain socket (prior knowledge) that writes exactly the frames a test
 * asks for, malformed ones included: header blocks are HPACK literals without indexing (pseudo-header
 * names indexed in the static table), written here byte by byte, so upper-case names, misplaced
 * pseudo-headers and connection-specific fields reach the server as sent. The server's header blocks are decoded with Helidon's HPACK decoder.
 */
public final class RawH2 implements AutoCloseable {

    public static final int DATA = 0x0;
    public static final int HEADERS = 0x1;
    public static final int RST_STREAM = 0x3;
    public static final int SETTINGS = 0x4;
    public static final int PING = 0x6;
    public static final int GOAWAY = 0x7;
    public static final int WINDOW_UPDATE = 0x8;
    public static final int CONTINUATION = 0x9;

    public static final int END_STREAM = 0x1;
    public static final int ACK = 0x1;
    public static final int END_HEADERS = 0x4;

    // Helidon 4.5 takes a pseudo-header's name only from the static table (RFC 7541, appendix A),
    // as every client sends it; a literal one (":protocol") is refused
    private static final java.util.Map<String, Integer> PSEUDO_INDEX = java.util.Map.of(
            ":authority", 1, ":method", 2, ":path", 4, ":scheme", 6);
    private static final byte[] PREFACE = "PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n".getBytes(StandardCharsets.US_ASCII);

    /** The windows a client starts with, the router's SETTINGS leaving them at RFC 9113's default. */
    private static final long INITIAL_WINDOW = 65_535;

    private final Socket socket;
    private final java.util.ArrayDeque<Frame> held = new java.util.ArrayDeque<>();
    private final java.util.Map<Integer, Long> streamWindows = new java.util.HashMap<>();
    private long connectionWindow = INITIAL_WINDOW;
    private final OutputStream out;
    private final DataInputStream in;
    private final Http2Headers.DynamicTable table = Http2Headers.DynamicTable.create(4096);
    private final Http2HuffmanDecoder huffman = Http2HuffmanDecoder.create();

    /** One frame as read. */
    public record Frame(int type, int flags, int stream, byte[] payload) {

        @Override
        public String toString() {
            String detail = type == GOAWAY && payload.length > 8
                    ? " " + new String(payload, 8, payload.length - 8, StandardCharsets.UTF_8) : "";
            return name(type) + " stream " + stream + (type == GOAWAY || type == RST_STREAM
                    ? " error " + errorCode() + detail : " " + payload.length + " bytes");
        }

        /** The error code of a RST_STREAM or GOAWAY. */
        public int errorCode() {
            ByteBuffer bytes = ByteBuffer.wrap(payload);
            return type == GOAWAY ? bytes.getInt(4) : bytes.getInt(0);
        }
    }

    /**
     * How a stream ended, as the client saw it.
     *
     * @param status the answer's status, or 0 when there was none
     * @param body   the answer's body
     * @param reset  the RST_STREAM or GOAWAY that ended it, or {@code null}
     * @param closed whether the connection closed before the stream ended
     * @param fields every field block of the answer decoded (the head; trailers after the body)
     */
    public record Outcome(int status, byte[] body, Frame reset, boolean closed, List<Http2Headers> fields) {

        @Override
        public String toString() {
            return "status " + status + ", reset " + reset + ", closed " + closed + ", fields " + fields
                    + ", body " + text();
        }

        public String text() {
            return new String(body, StandardCharsets.UTF_8);
        }

        /** Refused without an answer (a stream reset, a GOAWAY, a close), or answered 400. */
        public boolean refused() {
            return status == 400 || reset != null || closed;
        }
    }

    private RawH2(Socket socket) throws IOException {
        this.socket = socket;
        this.out = socket.getOutputStream();
        this.in = new DataInputStream(socket.getInputStream());
    }

    /** Connects and sends the preface and an empty SETTINGS frame. */
    public static RawH2 connect(int port) throws IOException {
        RawH2 client = new RawH2(new Socket("127.0.0.1", port));
        client.socket.setSoTimeout(10_000);
        client.out.write(PREFACE);
        client.frame(SETTINGS, 0, 0, new byte[0]);
        return client;
    }

    public Socket socket() {
        return socket;
    }

    /** Writes one frame. */
    public synchronized void frame(int type, int flags, int stream, byte[] payload) throws IOException {
        out.write(frameBytes(type, flags, stream, payload));
        out.flush();
    }

    /** One frame's bytes, for a test that writes several at once. */
    public static byte[] frameBytes(int type, int flags, int stream, byte[] payload) {
        ByteBuffer frame = ByteBuffer.allocate(9 + payload.length);
        frame.put((byte) (payload.length >>> 16)).put((byte) (payload.length >>> 8)).put((byte) payload.length);
        frame.put((byte) type).put((byte) flags).putInt(stream & 0x7fffffff).put(payload);
        return frame.array();
    }

    /** A HEADERS frame with these fields, name and value in turn, ending the headers. */
    public void headers(int stream, boolean endStream, String... fields) throws IOException {
        frame(HEADERS, END_HEADERS | (endStream ? END_STREAM : 0), stream, block(fields));
    }

    /** A DATA frame. */
    public void data(int stream, boolean endStream, byte[] data) throws IOException {
        frame(DATA, endStream ? END_STREAM : 0, stream, data);
    }

    /** A RST_STREAM frame with CANCEL. */
    public void reset(int stream) throws IOException {
        frame(RST_STREAM, 0, stream, new byte[] {0, 0, 0, 8});
    }

    /** The fields as an HPACK block of literals without indexing, never Huffman-coded. */
    public static byte[] block(String... fields) {
        ByteArrayOutputStream block = new ByteArrayOutputStream();
        for (int i = 0; i < fields.length; i += 2) {
            Integer indexed = PSEUDO_INDEX.get(fields[i]);
            if (indexed != null) {
                integer(block, indexed, 4, 0x00); // the name from the static table (RFC 7541, 6.2.2)
            } else {
                block.write(0x00);
                string(block, fields[i]);
            }
            string(block, fields[i + 1]);
        }
        return block.toByteArray();
    }

    /** A GET's pseudo-headers for this path, then the other fields. */
    public static String[] get(String path, String... fields) {
        return request("GET", path, fields);
    }

    /** A request's pseudo-headers, then the other fields. */
    public static String[] request(String method, String path, String... fields) {
        String[] all = new String[8 + fields.length];
        System.arraycopy(new String[] {":method", method, ":scheme", "http", ":path", path,
                ":authority", "router.test"}, 0, all, 0, 8);
        System.arraycopy(fields, 0, all, 8, fields.length);
        return all;
    }

    private static void string(ByteArrayOutputStream block, String text) {
        byte[] bytes = text.getBytes(StandardCharsets.ISO_8859_1);
        integer(block, bytes.length, 7, 0);
        block.writeBytes(bytes);
    }

    // RFC 7541, section 5.1
    private static void integer(ByteArrayOutputStream block, int value, int prefixBits, int first) {
        int max = (1 << prefixBits) - 1;
        if (value < max) {
            block.write(first | value);
            return;
        }
        block.write(first | max);
        int rest = value - max;
        while (rest >= 128) {
            block.write((rest & 0x7f) | 0x80);
            rest >>>= 7;
        }
        block.write(rest);
    }

    /**
     * A request body as DATA frames of up to 16 KiB, the last ending the stream, kept within the
     * connection's and the stream's flow-control windows as a client must: past them it waits for
     * the router's WINDOW_UPDATEs. Other frames read meanwhile are held for {@link #read()}.
     */
    public void body(int stream, byte[] body) throws IOException {
        int sent = 0;
        do {
            int size = Math.min(16_384, body.length - sent);
            while (size > Math.min(connectionWindow, streamWindows.getOrDefault(stream, (long) INITIAL_WINDOW))) {
                Frame frame = readFromSocket();
                if (frame.type() == WINDOW_UPDATE) {
                    long increment = ByteBuffer.wrap(frame.payload()).getInt() & 0x7fffffffL;
                    if (frame.stream() == 0) {
                        connectionWindow += increment;
                    } else {
                        streamWindows.merge(frame.stream(), INITIAL_WINDOW + increment, (was, none) -> was + increment);
                    }
                } else {
                    held.add(frame);
                }
            }
            data(stream, sent + size == body.length, java.util.Arrays.copyOfRange(body, sent, sent + size));
            connectionWindow -= size;
            streamWindows.merge(stream, INITIAL_WINDOW - size, (was, none) -> was - size);
            sent += size;
        } while (sent < body.length);
    }

    /** The next frame; SETTINGS and PING are acknowledged as they come, and returned too. */
    public Frame read() throws IOException {
        Frame frame = held.poll();
        return frame != null ? frame : readFromSocket();
    }

    private Frame readFromSocket() throws IOException {
        byte[] head = new byte[9];
        in.readFully(head);
        int length = ((head[0] & 0xff) << 16) | ((head[1] & 0xff) << 8) | (head[2] & 0xff);
        int stream = ByteBuffer.wrap(head, 5, 4).getInt() & 0x7fffffff;
        byte[] payload = new byte[length];
        in.readFully(payload);
        Frame frame = new Frame(head[3], head[4] & 0xff, stream, payload);
        if (frame.type() == SETTINGS && (frame.flags() & ACK) == 0) {
            frame(SETTINGS, ACK, 0, new byte[0]);
        }
        return frame;
    }

    /** Reads until this stream ends: answered, reset, the connection gone away or closed. */
    public Outcome await(int stream) throws IOException {
        int status = 0;
        ByteArrayOutputStream body = new ByteArrayOutputStream();
        List<Http2Headers> fields = new java.util.ArrayList<>();
        try {
            while (true) {
                Frame frame = read();
                if (frame.type() == GOAWAY) {
                    return new Outcome(status, body.toByteArray(), frame, false, fields);
                }
                if (frame.stream() != stream) {
                    continue;
                }
                switch (frame.type()) {
                    case HEADERS -> {
                        Http2Headers decoded = decode(frame);
                        fields.add(decoded);
                        if (status == 0) {
                            status = decoded.status().code();
                        }
                    }
                    case DATA -> {
                        body.writeBytes(frame.payload());
                        if (frame.payload().length > 0) {
                            frame(WINDOW_UPDATE, 0, 0, ByteBuffer.allocate(4).putInt(frame.payload().length).array());
                        }
                    }
                    case RST_STREAM -> {
                        return new Outcome(status, body.toByteArray(), frame, false, fields);
                    }
                    default -> {
                    }
                }
                if ((frame.type() == HEADERS || frame.type() == DATA) && (frame.flags() & END_STREAM) != 0) {
                    return new Outcome(status, body.toByteArray(), null, false, fields);
                }
            }
        } catch (EOFException | java.net.SocketException closed) {
            return new Outcome(status, body.toByteArray(), null, true, fields);
        }
    }

    /** Reads frames until the connection closes or the time passes; whether it closed. */
    public boolean closesWithin(Duration limit) throws IOException {
        socket.setSoTimeout((int) limit.toMillis());
        try {
            while (true) {
                read();
            }
        } catch (EOFException | java.net.SocketException closed) {
            return true;
        } catch (SocketTimeoutException open) {
            return false;
        }
    }

    private Http2Headers decode(Frame frame) {
        byte[] payload = frame.payload();
        Http2FrameHeader header = Http2FrameHeader.create(payload.length, io.helidon.http.http2.Http2FrameTypes.HEADERS,
                io.helidon.http.http2.Http2Flag.HeaderFlags.create(frame.flags()), frame.stream());
        return Http2Headers.create(null, table, huffman, new Http2FrameData(header, BufferData.create(payload)));
    }

    /** Every frame type this client reads, named, for messages. */
    public static String name(int type) {
        return List.of("DATA", "HEADERS", "PRIORITY", "RST_STREAM", "SETTINGS", "PUSH_PROMISE", "PING", "GOAWAY",
                "WINDOW_UPDATE", "CONTINUATION").get(type);
    }

    @Override
    public void close() throws IOException {
        socket.close();
    }
}
