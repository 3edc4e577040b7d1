package io.insika.router.server.proxy;

import java.util.Arrays;

import io.helidon.common.buffers.BufferData;
import io.helidon.common.buffers.DataWriter;

/**
 * The client connection's writer without its socket: each buffer the answer writes is copied
 * into one array, as a socket write copies it into the kernel, and cleared before the next
 * request, so the sink itself allocates nothing.
 */
final class ClientSocketSink implements DataWriter {

    private byte[] bytes = new byte[4096];
    private int count;

    /** Forgets what was written: the next answer starts the array. */
    void clear() {
        count = 0;
    }

    /** What was written since the last clear. */
    byte[] written() {
        return Arrays.copyOf(bytes, count);
    }

    @Override
    public void write(BufferData... buffers) {
        writeNow(buffers);
    }

    @Override
    public void write(BufferData buffer) {
        writeNow(buffer);
    }

    @Override
    public void writeNow(BufferData... buffers) {
        for (BufferData buffer : buffers) {
            writeNow(buffer);
        }
    }

    @Override
    public void writeNow(BufferData buffer) {
        int n = buffer.available();
        if (count + n > bytes.length) {
            bytes = Arrays.copyOf(bytes, Math.max(2 * bytes.length, count + n));
        }
        buffer.read(bytes, count, n);
        count += n;
    }
}
