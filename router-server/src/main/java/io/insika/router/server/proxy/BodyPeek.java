package io.insika.router.server.proxy;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.util.Arrays;

import io.insika.router.api.BodyPrefix;

/**
 * The start of a request body, read lazily for key extractors and kept so that it can be
 * forwarded first, followed by the rest of the body straight from the client.
 *
 * <p>Memory is bounded by the cap, never by the body: at most {@code limit + 1} bytes are held
 * (the extra byte is how we learn the body goes on past the cap). Not thread-safe: one request,
 * one virtual thread.
 */
final class BodyPeek implements BodyPrefix {

    private static final int FIRST_CHUNK = 8192;

    private final InputStream client;
    private final int limit;
    private final long declaredLength;
    private byte[] buffer = new byte[0];
    private int filled;
    private boolean clientEnded;
    private ClientGoneException clientFailure;
    private final PeekBudget budget;
    private int charged; // bytes of the budget this peek holds
    private boolean overBudget;
    private volatile long restRead; // written by the upload's thread, read once the request ended
    private boolean restTaken; // bytes past the peek were read from the client: they cannot be sent twice

    /**
     * @param client         the request body as Helidon streams it
     * @param limit          body-max-bytes
     * @param declaredLength the Content-Length, or -1 for a chunked body; sizes buffers so that a
     *                       300-byte body does not cost 16 KiB of garbage
     * @param budget         what all peeks may hold together beyond their first 8 KiB
     */
    BodyPeek(InputStream client, int limit, long declaredLength, PeekBudget budget) {
        this.client = client;
        this.limit = limit;
        this.declaredLength = declaredLength;
        this.budget = budget;
    }

    @Override
    public InputStream open() {
        return new PrefixStream();
    }

    @Override
    public int limit() {
        return limit;
    }

    @Override
    public boolean exceedsLimit() {
        return filled > limit;
    }

    /**
     * Whether the peek stopped for want of memory budget: the key may lie beyond what was read,
     * so the request must be refused with the retry envelope rather than placed.
     */
    boolean overBudget() {
        return overBudget;
    }

    /** Gives back the budget this peek held: once the request is done with its peeked bytes. */
    void releaseBudget() {
        budget.release(charged);
        charged = 0;
    }

    /** The body's Content-Length, or -1 when it is chunked. */
    long declaredLength() {
        return declaredLength;
    }

    /**
     * Whether all the client sent so far is still held here, so the body can be sent again
     * whole (to a fresh connection after a dead one): true until {@link #forwardRest} first
     * reads from the client.
     */
    boolean replayable() {
        return !restTaken;
    }

    /** How many body bytes have been taken from the client so far. */
    int peeked() {
        return filled;
    }

    /**
     * Writes the bytes peeked so far.
     *
     * @throws ClientGoneException if reading them from the client had failed
     */
    void forwardPeeked(OutputStream backend) throws IOException {
        requireClient();
        // Never write zero bytes: a chunked stream would take it for the end of the body.
        if (filled > 0) {
            backend.write(buffer, 0, filled);
        }
    }

    /**
     * Fails if reading the peeked bytes from the client failed: a request whose client is gone is
     * not worth a backend connection.
     *
     * @throws ClientGoneException if it did
     */
    void requireClient() {
        if (clientFailure != null) {
            throw clientFailure;
        }
    }

    /** The body bytes read from the client so far: those peeked and those forwarded after them. */
    long bytesRead() {
        return filled + restRead;
    }

    /** Whether the body was read to its end: then the client connection can carry another request. */
    boolean fullyRead() {
        return clientFailure == null && unpeekedLength() == 0;
    }

    /** How many bytes follow the peeked ones: 0 when the body is all peeked, -1 when unknown (chunked). */
    long unpeekedLength() {
        if (clientEnded || (declaredLength >= 0 && filled >= declaredLength)) {
            return 0;
        }
        return declaredLength < 0 ? -1 : declaredLength - filled;
    }

    /**
     * Copies what follows the peeked bytes straight from the client.
     *
     * @throws ClientGoneException if reading from the client fails
     */
    void forwardRest(OutputStream backend) throws IOException {
        if (unpeekedLength() == 0) {
            observeEnd();
            return;
        }
        CopyBuffer copy = new CopyBuffer(declaredLength < 0 ? -1 : declaredLength - filled);
        restTaken = true;
        while (true) {
            int n;
            try {
                n = client.read(copy.bytes());
            } catch (IOException e) {
                throw new ClientGoneException(e);
            } catch (RuntimeException e) {
                // Helidon's reader reports a client that left, and a chunk it cannot parse, unchecked
                throw ClientGoneException.from(e);
            }
            if (n < 0) {
                clientEnded = true;
                return;
            }
            if (n > 0) {
                restRead += n;
                backend.write(copy.bytes(), 0, n);
                copy.read(n);
            }
        }
    }

    /**
     * Lets Helidon see the end of a body peeked whole: its length-framed stream answers -1 at
     * once, without reading the socket, and marks the entity consumed. Otherwise Helidon drains it
     * after the handler with a fresh 2 KiB buffer, 13% of the bytes allocated per small request.
     * The stream never yields bytes past the declared length, so nothing can be lost here.
     */
    private void observeEnd() {
        if (clientEnded || clientFailure != null || declaredLength < 0) {
            return;
        }
        int next;
        try {
            next = client.read();
        } catch (IOException | RuntimeException e) {
            clientEnded = true; // Helidon will find the same trouble and close the connection
            return;
        }
        if (next >= 0) {
            throw new IllegalStateException("a body gave bytes past its Content-Length");
        }
        clientEnded = true;
    }

    // Pulls more bytes from the client, growing the buffer, never past limit + 1.
    private boolean pull(int wanted) {
        if (clientEnded || filled > limit) {
            return false;
        }
        int room = limit + 1 - filled;
        int ask = Math.min(room, Math.max(wanted, FIRST_CHUNK));
        if (declaredLength >= 0) {
            ask = (int) Math.max(1, Math.min(ask, declaredLength + 1 - filled)); // +1 still sees the end
        }
        if (buffer.length - filled < ask) {
            int grown = Math.min(limit + 1, Math.max(filled + ask, buffer.length * 2));
            int more = Math.max(0, grown - PeekBudget.FREE_BYTES) - charged;
            if (more > 0) {
                if (!budget.acquire(more)) {
                    overBudget = true; // the key search stops here; the request is refused, not misrouted
                    return false;
                }
                charged += more;
            }
            buffer = Arrays.copyOf(buffer, grown);
        }
        try {
            int n = client.read(buffer, filled, ask);
            if (n < 0) {
                clientEnded = true;
                return false;
            }
            filled += n;
            return true;
        } catch (IOException e) {
            clientFailure = new ClientGoneException(e);
        } catch (RuntimeException e) {
            clientFailure = ClientGoneException.from(e);
        }
        clientEnded = true;
        return false;
    }

    private final class PrefixStream extends InputStream {
        private int position;

        @Override
        public int read() {
            byte[] one = new byte[1];
            return read(one, 0, 1) < 0 ? -1 : one[0] & 0xFF;
        }

        @Override
        public int read(byte[] target, int offset, int length) {
            if (length == 0) {
                return 0;
            }
            int visible = Math.min(filled, limit);
            while (position >= visible) {
                if (position >= limit) {
                    pull(1); // learn whether the body goes on past the cap
                    return -1;
                }
                if (!pull(length)) {
                    return -1;
                }
                visible = Math.min(filled, limit);
            }
            int n = Math.min(length, visible - position);
            System.arraycopy(buffer, position, target, offset, n);
            position += n;
            return n;
        }
    }
}
