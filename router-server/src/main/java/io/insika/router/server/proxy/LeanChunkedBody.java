package io.insika.router.server.proxy;

import java.io.InputStream;

import io.helidon.common.buffers.DataReader;
import io.insika.router.server.upstream.HttpSyntax;

/**
 * A chunked request body read from the client's connection (RFC 9112, section 7.1), never a
 * byte past its end. Chunk extensions are read past and trailer fields checked and dropped:
 * the body reaches the backend re-chunked by the router, as nginx and HAProxy forward it
 * without them. Read strictly, since a leniency here could let a front proxy and the router
 * disagree on where the next request starts: a chunk size that is not 1 to 15 hex digits, a
 * line not ended by CRLF, chunk data not followed by CRLF, or a trailer section that is not
 * field lines within {@link #MAX_TRAILER_BYTES} is a {@link Malformed} framing, which the proxy
 * answers 400 and closes on. A client that leaves mid-body ends a read with Helidon's
 * {@link DataReader.InsufficientDataAvailableException}, as {@link LeanBody} does.
 */
final class LeanChunkedBody extends InputStream implements FramedBody {

    private static final int MAX_LINE = 4096;
    static final int MAX_TRAILER_BYTES = 16 * 1024;

    private final DataReader reader;
    private long remaining; // of the chunk being read
    private boolean ended;

    LeanChunkedBody(DataReader reader) {
        this.reader = reader;
    }

    @Override
    public boolean consumed() {
        return ended;
    }

    @Override
    public int read() {
        byte[] one = new byte[1];
        return read(one, 0, 1) < 0 ? -1 : one[0] & 0xff;
    }

    @Override
    public int read(byte[] b, int off, int len) {
        if (ended) {
            return -1;
        }
        if (len == 0) {
            return 0;
        }
        if (remaining == 0) {
            String line = line();
            long size = HttpSyntax.chunkSize(line);
            if (size < 0) {
                throw new Malformed("bad chunk size line [" + HttpSyntax.printable(line) + "]");
            }
            if (size == 0) {
                skipTrailers();
                ended = true;
                return -1;
            }
            remaining = size;
        }
        reader.ensureAvailable();
        int n = (int) Math.min(Math.min(len, remaining), reader.available());
        reader.readBuffer(n).read(b, off, n);
        remaining -= n;
        if (remaining == 0 && !line().isEmpty()) {
            throw new Malformed("chunk data longer than its size");
        }
        return n;
    }

    @Override
    public int available() {
        return ended || remaining == 0 ? 0 : (int) Math.min(remaining, reader.available());
    }

    private void skipTrailers() {
        int total = 0;
        for (String line = line(); !line.isEmpty(); line = line()) {
            total += line.length() + 2;
            if (total > MAX_TRAILER_BYTES || !isFieldLine(line)) {
                throw new Malformed("bad or oversized trailer section");
            }
        }
    }

    // name ":" OWS value: a token, then field-value characters without obs-text
    private static boolean isFieldLine(String line) {
        int colon = line.indexOf(':');
        if (colon <= 0 || !HttpSyntax.isToken(line.substring(0, colon))) {
            return false;
        }
        for (int i = colon + 1; i < line.length(); i++) {
            char c = line.charAt(i);
            if (c > 0x7e || !HttpSyntax.isFieldValueChar(c)) {
                return false;
            }
        }
        return true;
    }

    // A line ended by CRLF, without it; a bare CR or LF is refused
    private String line() {
        StringBuilder line = new StringBuilder();
        while (true) {
            reader.ensureAvailable();
            byte c = reader.read();
            if (c == '\r') {
                reader.ensureAvailable();
                if (reader.read() != '\n') {
                    throw new Malformed("bare CR in a chunk line");
                }
                return line.toString();
            }
            if (c == '\n') {
                throw new Malformed("bare LF in a chunk line");
            }
            if (line.length() >= MAX_LINE) {
                throw new Malformed("chunk line longer than " + MAX_LINE + " bytes");
            }
            line.append((char) (c & 0xff));
        }
    }

    /** The body's framing is invalid: nothing after it is read from the connection. */
    static final class Malformed extends RuntimeException {
        private static final long serialVersionUID = 1L;

        Malformed(String message) {
            super(message);
        }
    }
}
