package io.insika.router.server.proxy;

import java.io.IOException;
import java.io.OutputStream;
import java.util.Arrays;

import io.helidon.http.HttpPrologue;

/**
 * Writes one request to a backend: the head, then the body, as HTTP/1.1 with a Content-Length or
 * in chunks. Small requests leave in a single write; larger bodies stream through a fixed buffer.
 * Records whether any byte went out, which decides if a failure may be answered as retryable.
 */
final class RequestWriter extends OutputStream {

    private static final byte[] CRLF = {'\r', '\n'};
    private static final byte[] LAST_CHUNK = {'0', '\r', '\n', '\r', '\n'};

    private final BackendConnection connection;
    private byte[] buffer;
    private int count;
    private boolean chunked;
    private boolean started;

    RequestWriter(BackendConnection connection) {
        this.connection = connection;
        this.buffer = connection.writeBuffer();
    }

    /** Starts the head with the client's method, raw path and raw query, byte for byte. */
    void requestLine(HttpPrologue prologue) {
        requestLine(prologue.method().text(), prologue.hasQuery()
                ? prologue.uriPath().rawPath() + "?" + prologue.query().rawValue()
                : prologue.uriPath().rawPath());
    }

    /** Starts the head: {@code METHOD target HTTP/1.1}. */
    void requestLine(String method, String target) {
        ascii(method);
        append((byte) ' ');
        ascii(target);
        ascii(" HTTP/1.1\r\n");
    }

    void header(String name, String value) {
        ascii(name);
        append((byte) ':');
        append((byte) ' ');
        ascii(value);
        append(CRLF, 0, 2);
    }

    /**
     * Ends the head; the body that follows is sent in chunks when its length is unknown.
     */
    void endHead(boolean chunkedBody) {
        if (chunkedBody) {
            header("Transfer-Encoding", "chunked");
        }
        append(CRLF, 0, 2);
        this.chunked = chunkedBody;
    }

    /** Whether any byte reached the socket: from then on the backend may act on the request. */
    boolean started() {
        return started;
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
    void flushBuffered() throws IOException {
        drain();
        connection.flush();
    }

    /** Ends the body and sends all that is buffered. */
    void finish() throws IOException {
        if (chunked) {
            append(LAST_CHUNK, 0, LAST_CHUNK.length);
        }
        drain();
        connection.flush();
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
        started = true; // set before: a write that fails part-way may have sent some
        connection.write(bytes, offset, length);
    }

    // Header values hold what Helidon parsed: one char per octet, so each char is written back as
    // its low byte.
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
