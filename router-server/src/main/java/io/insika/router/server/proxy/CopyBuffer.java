package io.insika.router.server.proxy;

/**
 * The buffer a body is copied through, sized to what is being copied: no larger than what is left
 * when the length is known, and for a body of unknown length (chunked) started small and grown
 * each time a read fills it, up to {@link #MAX}. A fresh 16 KiB for every chunked answer was 23
 * times the bytes the rest of a request allocates (RequestPathBenchmark,
 * {@code step5ClientAnswerChunked}), and Node's and Python's servers answer chunked by default.
 * Not thread-safe: one copy, one thread.
 */
final class CopyBuffer {

    /** The most a read takes at once. */
    static final int MAX = 16 * 1024;
    /**
     * Where a body of unknown length starts: a small answer's whole, an event of a stream. A read
     * that fills it is followed by one four times larger.
     */
    static final int FIRST_UNKNOWN = 512;

    private final boolean grows;
    private byte[] bytes;

    /** @param remaining the bytes left to copy, or -1 when unknown */
    CopyBuffer(long remaining) {
        this.grows = remaining < 0;
        this.bytes = new byte[size(remaining)];
    }

    /** The buffer for the next read. */
    byte[] bytes() {
        return bytes;
    }

    /**
     * After a read of {@code n} bytes was written out: a body of unknown length that filled the
     * buffer is taken in larger reads from then on.
     */
    void read(int n) {
        if (grows && n == bytes.length && bytes.length < MAX) {
            bytes = new byte[Math.min(MAX, bytes.length * 4)];
        }
    }

    static int size(long remaining) {
        return remaining < 0 ? FIRST_UNKNOWN : remaining > MAX ? MAX : (int) Math.max(1, remaining);
    }
}
