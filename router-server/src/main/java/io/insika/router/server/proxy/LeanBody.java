package io.insika.router.server.proxy;

import java.io.InputStream;

import io.helidon.common.buffers.DataReader;

/**
 * A {@code Content-Length} body read from the client's connection, never a byte past its end.
 * A client that leaves mid-body ends a read with Helidon's
 * {@link DataReader.InsufficientDataAvailableException}, as Helidon's own body stream does.
 */
final class LeanBody extends InputStream implements FramedBody {

    private final DataReader reader;
    private long remaining;

    LeanBody(DataReader reader, long length) {
        this.reader = reader;
        this.remaining = length;
    }

    @Override
    public boolean consumed() {
        return remaining == 0;
    }

    @Override
    public int read() {
        byte[] one = new byte[1];
        return read(one, 0, 1) < 0 ? -1 : one[0] & 0xff;
    }

    @Override
    public int read(byte[] b, int off, int len) {
        if (remaining == 0) {
            return -1;
        }
        if (len == 0) {
            return 0;
        }
        reader.ensureAvailable();
        int n = (int) Math.min(Math.min(len, remaining), reader.available());
        reader.readBuffer(n).read(b, off, n);
        remaining -= n;
        return n;
    }

    @Override
    public int available() {
        return (int) Math.min(remaining, reader.available());
    }
}
