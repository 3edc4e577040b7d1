package io.insika.router.strategies.extract;

import java.io.InputStream;

import io.insika.router.api.BodyPrefix;

/**
 * An in-memory body that behaves like the router's: each stream ends at the limit or the body's
 * end, re-opening starts at byte 0, and it records the furthest byte any stream pulled, which is
 * how far a real router would have read from the client.
 */
public final class CountingBodyPrefix implements BodyPrefix {

    private final byte[] body;
    private final int limit;
    private volatile int pulled;

    CountingBodyPrefix(byte[] body, int limit) {
        this.body = body;
        this.limit = limit;
    }

    /** The furthest byte any stream has read: the bytes a router would have pulled from the client. */
    public int pulled() {
        return pulled;
    }

    @Override
    public InputStream open() {
        return new InputStream() {
            private final int end = Math.min(body.length, limit);
            private int position;

            @Override
            public int read() {
                if (position >= end) {
                    return -1;
                }
                advance(position + 1);
                return body[position - 1] & 0xff;
            }

            @Override
            public int read(byte[] into, int offset, int length) {
                if (length == 0) {
                    return 0;
                }
                if (position >= end) {
                    return -1;
                }
                int count = Math.min(length, end - position);
                System.arraycopy(body, position, into, offset, count);
                advance(position + count);
                return count;
            }

            private void advance(int to) {
                position = to;
                pulled = Math.max(pulled, to);
            }
        };
    }

    @Override
    public int limit() {
        return limit;
    }

    @Override
    public boolean exceedsLimit() {
        return pulled >= limit && body.length > limit;
    }
}
