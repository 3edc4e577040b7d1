package io.insika.router.api;

import java.io.InputStream;

/**
 * The first bytes of a request body, as far as the router lets a key extractor read.
 *
 * <p>The router caps how much of a body it reads ahead of forwarding ({@code body-max-bytes}); the
 * stream {@link #open()} returns ends at that cap or at the end of the body, whichever comes
 * first. Bytes are pulled from the client only as the stream is read, so an extractor that
 * finds its key early costs the same on a 1 KiB body as on a 1 GiB one. Every byte read is kept
 * and later forwarded ahead of the rest of the body.
 */
public interface BodyPrefix {

    /**
     * A stream over the body prefix, from its first byte. Each call starts again at the first
     * byte; bytes already read are served from memory. The stream reports an I/O failure or a
     * truncated body as its end, never as an exception.
     *
     * @return the stream; reading past the cap or the body's end returns {@code -1}
     */
    InputStream open();

    /**
     * How many bytes at most {@link #open()} yields.
     *
     * @return the cap, {@code body-max-bytes}
     */
    int limit();

    /**
     * Whether the body goes on past {@link #limit()}: {@code true} only once a read has reached
     * the cap and at least one more body byte exists.
     *
     * @return {@code true} if the prefix stopped at the cap with body bytes left over
     */
    boolean exceedsLimit();
}
