package io.insika.router.server.upstream;

import java.io.IOException;

/**
 * Bytes arriving from a backend, read through one buffer the parsers work in place: a
 * {@link BackendConnection}, or an array in the parsers' fuzz and unit tests.
 */
interface WireInput {

    /**
     * Makes sure at least one unread byte is in the buffer, blocking if need be.
     *
     * @return false at end of stream
     */
    boolean fill() throws IOException;

    /** Like {@link #fill()}, but end of stream is an error: the message was cut. */
    void require() throws IOException;

    /** Whether an unread byte is in the buffer now, so that reading one would not block. */
    default boolean buffered() {
        return position() < limit();
    }

    byte[] buffer();

    int position();

    int limit();

    void consume(int count);

    /** The message under way is a stream: its silences are measured by the stream idle timeout. */
    default void becomeStream() {
    }
}
