package io.insika.router.server.proxy;

import java.io.OutputStream;
import java.util.Locale;

import io.helidon.http.Header;
import io.helidon.http.HeaderNames;
import io.helidon.http.Status;
import io.helidon.webserver.http.ServerResponse;

/**
 * A {@link ClientAnswer} through Helidon's response, to an HTTP/1 request or an HTTP/2 stream. An
 * HTTP/2 stream gets the same answers less the fields that speak of an HTTP/1 connection, which an
 * HTTP/2 message must not carry (RFC 9113, section 8.2.2; a client treats an answer with them as
 * malformed): the router's {@code Connection: close} after an unread body becomes the end of the
 * stream. Nor does it get a trailer the backend never sent: Helidon 4.5 answers a request with
 * {@code te: trailers} through a stream with {@code Trailer: stream-result} and a
 * {@code stream-result: OK} trailer of its own.
 *
 * @param response the response
 * @param http2    whether it answers an HTTP/2 stream
 */
record HelidonAnswer(ServerResponse response, boolean http2) implements ClientAnswer {

    @Override
    public void status(Status status) {
        response.status(status);
    }

    @Override
    public Status status() {
        return response.status();
    }

    @Override
    public void header(Header header) {
        if (!http2 || !Http2Fields.connectionSpecific(header.name().toLowerCase(Locale.ROOT))) {
            response.header(header);
        }
    }

    @Override
    public void clearHeaders() {
        response.headers().clear();
    }

    @Override
    public void send() {
        response.send();
    }

    @Override
    public void send(byte[] body) {
        response.send(body);
    }

    @Override
    public OutputStream outputStream() {
        OutputStream out = response.outputStream();
        if (http2) {
            // the head leaves with the first write: without Trailer, Helidon sends no trailers
            response.headers().remove(HeaderNames.TRAILER);
        }
        return out;
    }

    @Override
    public long bytesWritten() {
        return response.bytesWritten();
    }
}
