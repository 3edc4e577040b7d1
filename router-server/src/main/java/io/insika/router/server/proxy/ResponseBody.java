package io.insika.router.server.proxy;

import java.io.EOFException;
import java.io.IOException;
import java.io.InputStream;
import java.net.ProtocolException;
import java.util.List;
import java.util.Locale;
import java.util.OptionalLong;

/**
 * A backend answer's body, decoded from its HTTP/1.1 framing (RFC 9112, section 6.3): a
 * Content-Length, chunked transfer coding, or everything until the backend closes. Reads come
 * straight from the connection's buffer; nothing is held beyond it.
 */
final class ResponseBody extends InputStream {

    private static final int MAX_CHUNK_LINE = 4096;

    private enum Framing { NONE, LENGTH, CHUNKED, UNTIL_CLOSE }

    private final BackendConnection connection;
    private final Framing framing;
    private final long length;
    private long remaining;
    private boolean complete;

    private ResponseBody(BackendConnection connection, Framing framing, long length) {
        this.connection = connection;
        this.framing = framing;
        this.length = length;
        this.remaining = framing == Framing.LENGTH ? length : 0;
        this.complete = framing == Framing.NONE || (framing == Framing.LENGTH && length == 0);
    }

    /**
     * The body that follows the head.
     *
     * @param bodiless whether the answer has no body whatever its headers say (HEAD, 204, 304)
     * @throws ProtocolException if the framing headers are invalid or contradict each other
     */
    static ResponseBody of(BackendConnection connection, ResponseHead head, boolean bodiless) throws ProtocolException {
        if (bodiless) {
            return new ResponseBody(connection, Framing.NONE, 0);
        }
        List<String> codings = head.values("transfer-encoding");
        if (!codings.isEmpty()) {
            String last = String.join(",", codings).toLowerCase(Locale.ROOT).strip();
            // Chunked must come last; any other final coding leaves the close as the only end.
            return last.endsWith("chunked")
                    ? new ResponseBody(connection, Framing.CHUNKED, -1)
                    : new ResponseBody(connection, Framing.UNTIL_CLOSE, -1);
        }
        List<String> lengths = head.values("content-length");
        if (lengths.isEmpty()) {
            return new ResponseBody(connection, Framing.UNTIL_CLOSE, -1);
        }
        long length = -1;
        for (String field : lengths) {
            for (String value : field.split(",")) {
                long parsed = parseLength(value.strip());
                if (length >= 0 && parsed != length) {
                    throw new ProtocolException("conflicting Content-Length values " + lengths);
                }
                length = parsed;
            }
        }
        return new ResponseBody(connection, Framing.LENGTH, length);
    }

    private static long parseLength(String value) throws ProtocolException {
        if (value.isEmpty() || value.length() > 18) {
            throw new ProtocolException("bad Content-Length [" + value + "]");
        }
        long length = 0;
        for (int i = 0; i < value.length(); i++) {
            char c = value.charAt(i);
            if (c < '0' || c > '9') {
                throw new ProtocolException("bad Content-Length [" + value + "]");
            }
            length = length * 10 + (c - '0');
        }
        return length;
    }

    /** The body's length when the backend declared it. */
    OptionalLong declaredLength() {
        return framing == Framing.LENGTH ? OptionalLong.of(length) : OptionalLong.empty();
    }

    /** Whether there is no body to read: a bodiless answer, or a Content-Length of 0. */
    boolean isEmpty() {
        return framing == Framing.NONE || (framing == Framing.LENGTH && length == 0);
    }

    /** Whether the body was read to its framed end: only then can the connection be reused. */
    boolean complete() {
        return complete && framing != Framing.UNTIL_CLOSE;
    }

    @Override
    public int read() throws IOException {
        byte[] one = new byte[1];
        return read(one, 0, 1) < 0 ? -1 : one[0] & 0xff;
    }

    @Override
    public int read(byte[] target, int offset, int count) throws IOException {
        if (count == 0) {
            return 0;
        }
        return switch (framing) {
            case NONE -> -1;
            case LENGTH -> readCounted(target, offset, count);
            case CHUNKED -> readChunked(target, offset, count);
            case UNTIL_CLOSE -> readToClose(target, offset, count);
        };
    }

    private int readCounted(byte[] target, int offset, int count) throws IOException {
        if (remaining == 0) {
            complete = true;
            return -1;
        }
        if (!connection.fill()) {
            throw new EOFException("backend closed with " + remaining + " of " + length + " body bytes unsent");
        }
        int n = copy(target, offset, (int) Math.min(count, remaining));
        remaining -= n;
        if (remaining == 0) {
            complete = true;
        }
        return n;
    }

    private int readChunked(byte[] target, int offset, int count) throws IOException {
        if (complete) {
            return -1;
        }
        if (remaining == 0) {
            long size = nextChunkSize();
            if (size == 0) {
                skipTrailers();
                complete = true;
                return -1;
            }
            remaining = size;
        }
        connection.require();
        int n = copy(target, offset, (int) Math.min(count, remaining));
        remaining -= n;
        if (remaining == 0) {
            expectCrlf();
        }
        return n;
    }

    private int readToClose(byte[] target, int offset, int count) throws IOException {
        if (!connection.fill()) {
            complete = true;
            return -1;
        }
        return copy(target, offset, count);
    }

    private int copy(byte[] target, int offset, int count) {
        int n = Math.min(count, connection.limit() - connection.position());
        System.arraycopy(connection.buffer(), connection.position(), target, offset, n);
        connection.consume(n);
        return n;
    }

    // chunk-size [ chunk-ext ] CRLF (RFC 9112, section 7.1)
    private long nextChunkSize() throws IOException {
        String line = line();
        int end = line.indexOf(';');
        String hex = (end < 0 ? line : line.substring(0, end)).strip();
        if (hex.isEmpty() || hex.length() > 15) {
            throw new ProtocolException("bad chunk size line [" + line + "]");
        }
        try {
            return Long.parseLong(hex, 16);
        } catch (NumberFormatException e) {
            throw new ProtocolException("bad chunk size line [" + line + "]");
        }
    }

    private void expectCrlf() throws IOException {
        if (!line().isEmpty()) {
            throw new ProtocolException("chunk data longer than its size");
        }
    }

    // Trailer fields end the body; they are not relayed (our answer to the client has its own framing).
    private void skipTrailers() throws IOException {
        while (!line().isEmpty()) {
            // skip
        }
    }

    private String line() throws IOException {
        StringBuilder line = new StringBuilder();
        while (true) {
            connection.require();
            byte b = connection.buffer()[connection.position()];
            connection.consume(1);
            if (b == '\n') {
                int last = line.length() - 1;
                return last >= 0 && line.charAt(last) == '\r' ? line.substring(0, last) : line.toString();
            }
            if (line.length() >= MAX_CHUNK_LINE) {
                throw new ProtocolException("chunk line longer than " + MAX_CHUNK_LINE + " bytes");
            }
            line.append((char) (b & 0xff));
        }
    }
}
