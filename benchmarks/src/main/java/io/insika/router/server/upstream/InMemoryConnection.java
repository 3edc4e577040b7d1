package io.insika.router.server.upstream;

import java.io.EOFException;
import java.io.IOException;
import java.net.ProtocolException;
import java.util.Arrays;

/**
 * A backend connection without its socket, for the request path's benchmark: what the router
 * writes lands in an array, and what it reads comes from one fixed answer, delivered whole by the
 * first read as a small answer arrives from a socket. The buffers are sized as
 * {@link BackendConnection}'s, so the real writer and parsers work on them unchanged; rewinding
 * makes the same connection carry the next exchange without allocating.
 *
 * <p>In the benchmarks module, in this package: the writer's constructor and the parsers' entries
 * are package-private, and main code gets no member for a benchmark.
 */
public final class InMemoryConnection implements WireInput, WireOutput {

    private final byte[] answer;
    private final byte[] buffer = new byte[8192];
    private final byte[] writeBuffer = new byte[8192];
    private byte[] sent = new byte[8192];
    private int taken;
    private int position;
    private int limit;
    private int sentCount;

    private InMemoryConnection(byte[] answer) {
        this.answer = answer.clone();
    }

    /** A connection whose backend answers these bytes to every request. */
    public static InMemoryConnection answering(byte[] answer) {
        return new InMemoryConnection(answer);
    }

    /** Ready for the next exchange: nothing sent, the answer unread. */
    public void rewind() {
        taken = 0;
        position = 0;
        limit = 0;
        sentCount = 0;
    }

    /** A request to write on this connection, as {@link Exchange#request()} gives. */
    public RequestWriter request() {
        return new RequestWriter(this);
    }

    /** The answer's head, as {@link Exchange#readHead()} reads it. */
    public ResponseHead readHead() throws IOException {
        return ResponseHead.read(this);
    }

    /** The answer's body after its head, as {@link Exchange#body} frames it. */
    public ResponseBody body(ResponseHead head, boolean bodiless) throws ProtocolException {
        return ResponseBody.of(this, head, bodiless);
    }

    /** What was written since the last rewind. */
    public byte[] sentBytes() {
        return Arrays.copyOf(sent, sentCount);
    }

    @Override
    public boolean fill() {
        if (position < limit) {
            return true;
        }
        int n = Math.min(buffer.length, answer.length - taken);
        if (n <= 0) {
            return false;
        }
        System.arraycopy(answer, taken, buffer, 0, n);
        taken += n;
        position = 0;
        limit = n;
        return true;
    }

    @Override
    public void require() throws IOException {
        if (!fill()) {
            throw new EOFException("the in-memory answer ended");
        }
    }

    @Override
    public byte[] buffer() {
        return buffer;
    }

    @Override
    public int position() {
        return position;
    }

    @Override
    public int limit() {
        return limit;
    }

    @Override
    public void consume(int count) {
        position += count;
    }

    @Override
    public void write(byte[] bytes, int offset, int length) {
        if (sentCount + length > sent.length) {
            sent = Arrays.copyOf(sent, Math.max(sent.length * 2, sentCount + length));
        }
        System.arraycopy(bytes, offset, sent, sentCount, length);
        sentCount += length;
    }

    @Override
    public void flush() {
    }

    @Override
    public byte[] writeBuffer() {
        return writeBuffer;
    }

    @Override
    public void startExchange() {
        sentCount = 0;
    }

    @Override
    public void requestSent() {
    }

    @Override
    public long bytesSent() {
        return sentCount;
    }
}
