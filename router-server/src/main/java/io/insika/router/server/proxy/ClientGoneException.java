package io.insika.router.server.proxy;

import java.io.IOException;
import java.io.UncheckedIOException;

import io.helidon.common.buffers.DataReader;

/**
 * The client's request body could not be read to its end: the client went away or stalled, or
 * (when {@link #malformed()}) it framed the body wrongly, a chunk size Helidon's reader refused
 * say. Either way no byte after the failure is ever read from that connection again.
 */
final class ClientGoneException extends RuntimeException {

    private static final long serialVersionUID = 1L;

    private final boolean malformed;

    private ClientGoneException(Throwable cause, boolean malformed) {
        super(malformed ? "the request body's framing is invalid" : "client stopped sending the request body", cause);
        this.malformed = malformed;
    }

    /** The client's stream failed. */
    ClientGoneException(IOException cause) {
        this(cause, false);
    }

    /**
     * What a failed read of Helidon's body stream means: an I/O failure or the end of the stream
     * is a client that left; any other exception is Helidon's reader refusing the framing.
     */
    static ClientGoneException from(RuntimeException failure) {
        boolean left = failure instanceof UncheckedIOException
                || failure instanceof DataReader.InsufficientDataAvailableException;
        return new ClientGoneException(failure instanceof UncheckedIOException io ? io.getCause() : failure, !left);
    }

    /** Whether the body's framing was invalid (rather than the client gone). */
    boolean malformed() {
        return malformed;
    }
}
