package io.insika.router.server.upstream;

import java.io.IOException;

/**
 * Where {@link RequestWriter} puts a request: a {@link BackendConnection}, or an array in the
 * writer's fuzz and unit tests.
 */
interface WireOutput {

    /** Writes all the bytes; when it fails, {@link #bytesSent()} still counts what left. */
    void write(byte[] bytes, int offset, int length) throws IOException;

    /** Flushes what the stream may hold (a TLS record). */
    void flush() throws IOException;

    /** A scratch buffer kept with the output, so a request costs no buffer of its own. */
    byte[] writeBuffer();

    /** A new request begins: nothing of it is sent yet. */
    void startExchange();

    /** The request is all sent. */
    void requestSent();

    /** How many bytes of the request left since {@link #startExchange()}. */
    long bytesSent();
}
