package io.insika.router.server.upstream;

import java.io.IOException;
import java.io.OutputStream;
import java.util.Arrays;


/**
 * Writes one request to a backend: the head, then the body, as HTTP/1.1 with a Content-Length or
 * in chunks. Small requests leave in a single write; larger bodies stream through a fixed buffer.
 *
 * <p>The framing of what it sends is decided here and only here ({@link #endHead(long)}), from
 * the body the router really sends: no framing header of the client's is ever copied, so no
 * header filtering upstream can leave the backend reading a body as a request of its own.
 * Every name and value is checked as it is written: a line break can never enter the head.
 */
public final class RequestWriter extends OutputStream {

    /** For {@link #endHead(long)}: the request has no body, and says nothing of one. */
    public static final long NO_BODY = -2;
    /** For {@link #endHead(long)}: the body's length is unknown; it goes in chunks. */
    public static final long CHUNKED = -1;

    private static final byte[] CRLF = {'\r', '\n'};
    private static final byte[] LAST_CHUNK = {'0', '\r', '\n', '\r', '\n'};

    private final WireOutput connection;
    private byte[] buffer;
    private int count;
    private boolean chunked;
    private long remaining = -1; // of a Content-Length body: writing more is refused

    RequestWriter(WireOutput connection) {
        this.connection = connection;
        this.buffer = connection.writeBuffer();
        connection.startExchange();
    }

    /**
     * Starts the head: {@code METHOD target HTTP/1.1}.
     *
     * @throws IllegalArgumentException if the method is not a token or the target not visible ASCII
     */
    public void requestLine(String method, String target) {
        if (!HttpSyntax.isToken(method) || !HttpSyntax.isTarget(target)) {
            throw new IllegalArgumentException("not a request line: " + HttpSyntax.printable(method + " " + target));
        }
        ascii(method);
        append((byte) ' ');
        ascii(target);
        ascii(" HTTP/1.1\r\n");
    }

    /**
     * Adds a header field.
     *
     * @throws IllegalArgumentException if the name is not a token or is a framing header (only
     *                                  {@link #endHead} writes those), or the value holds a control
     *                                  character or a character outside ISO-8859-1
     */
    public void header(String name, String value) {
        if (!HttpSyntax.isToken(name) || name.equalsIgnoreCase("content-length")
                || name.equalsIgnoreCase("transfer-encoding")) {
            throw new IllegalArgumentException("not a header this writer takes: " + HttpSyntax.printable(name));
        }
        field(name, value);
    }

    private void field(String name, String value) {
        int mark = count;
        ascii(name);
        append((byte) ':');
        append((byte) ' ');
        if (!fieldValue(value)) {
            count = mark;
            throw new IllegalArgumentException("header " + name + ": value not sendable");
        }
        append(CRLF, 0, 2);
    }

    /**
     * Ends the head with the framing of the body that follows.
     *
     * @param bodyLength the body's length, {@link #CHUNKED} when unknown, or {@link #NO_BODY}
     */
    public void endHead(long bodyLength) {
        if (bodyLength == CHUNKED) {
            field("Transfer-Encoding", "chunked");
            chunked = true;
        } else if (bodyLength >= 0) {
            field("Content-Length", Long.toString(bodyLength));
            remaining = bodyLength;
        }
        append(CRLF, 0, 2);
    }

    /** Whether any byte reached the backend: from then on it may act on the request. */
    public boolean started() {
        return connection.bytesSent() > 0;
    }

    @Override
    public void write(int b) throws IOException {
        write(new byte[] {(byte) b}, 0, 1);
    }

    @Override
    public void write(byte[] bytes, int offset, int length) throws IOException {
        if (length == 0) {
            return;
        }
        if (remaining >= 0) {
            if (length > remaining) {
                // more than the head announced: the excess would be read as another request
                throw new IOException("body longer than its Content-Length");
            }
            remaining -= length;
        }
        if (chunked) {
            if (count + length + 20 > buffer.length) {
                drain();
            }
            ascii(Integer.toHexString(length));
            append(CRLF, 0, 2);
            appendBody(bytes, offset, length);
            append(CRLF, 0, 2);
        } else {
            appendBody(bytes, offset, length);
        }
    }

    /** Sends what is buffered now, so that another thread may carry on writing. */
    public void flushBuffered() throws IOException {
        drain();
        connection.flush();
    }

    /**
     * Ends the body and sends all that is buffered.
     *
     * @throws IOException if a Content-Length body ended short: the backend would wait for the rest
     */
    public void finish() throws IOException {
        if (remaining > 0) {
            throw new IOException("body ended " + remaining + " bytes short of its Content-Length");
        }
        if (chunked) {
            append(LAST_CHUNK, 0, LAST_CHUNK.length);
        }
        drain();
        connection.flush();
        connection.requestSent();
    }

    private void appendBody(byte[] bytes, int offset, int length) throws IOException {
        if (count + length <= buffer.length) {
            append(bytes, offset, length);
            return;
        }
        drain();
        if (length >= buffer.length) {
            send(bytes, offset, length); // large writes skip the copy
        } else {
            append(bytes, offset, length);
        }
    }

    private void drain() throws IOException {
        if (count > 0) {
            send(buffer, 0, count);
            count = 0;
        }
    }

    private void send(byte[] bytes, int offset, int length) throws IOException {
        connection.write(bytes, offset, length);
    }

    // A field value, one octet per char: HTAB, SP, visible ASCII and obs-text only.
    private boolean fieldValue(String value) {
        int length = value.length();
        ensure(length);
        for (int i = 0; i < length; i++) {
            char c = value.charAt(i);
            if (!HttpSyntax.isFieldValueChar(c)) {
                return false;
            }
            buffer[count++] = (byte) c;
        }
        return true;
    }

    // Method, target and names: checked by their callers; one char per octet.
    private void ascii(String text) {
        int length = text.length();
        ensure(length);
        for (int i = 0; i < length; i++) {
            buffer[count++] = (byte) text.charAt(i);
        }
    }

    private void append(byte b) {
        ensure(1);
        buffer[count++] = b;
    }

    private void append(byte[] bytes, int offset, int length) {
        ensure(length);
        System.arraycopy(bytes, offset, buffer, count, length);
        count += length;
    }

    // Only a head larger than the buffer grows it; bodies drain instead.
    private void ensure(int more) {
        if (count + more > buffer.length) {
            buffer = Arrays.copyOf(buffer, Math.max(buffer.length * 2, count + more));
        }
    }
}
