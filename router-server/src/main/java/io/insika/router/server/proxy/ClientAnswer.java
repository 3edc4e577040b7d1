package io.insika.router.server.proxy;

import java.io.OutputStream;

import io.helidon.http.Header;
import io.helidon.http.HeaderName;
import io.helidon.http.HeaderValues;
import io.helidon.http.Status;

/**
 * The client's answer as the proxy writes it: what it asks of Helidon's {@code ServerResponse},
 * and no more, so that a connection the router frames itself can
 * take the same answers.
 */
interface ClientAnswer {

    void status(Status status);

    Status status();

    void header(Header header);

    default void header(HeaderName name, String value) {
        header(HeaderValues.create(name, value));
    }

    /** Drops every header set so far. */
    void clearHeaders();

    /** Sends the answer without a body. */
    void send();

    /** Sends the answer with this whole body. */
    void send(byte[] body);

    /** The body's stream: the head goes with its first write; closing it ends the answer. */
    OutputStream outputStream();

    /** Body bytes written so far. */
    long bytesWritten();
}
