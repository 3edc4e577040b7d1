package io.insika.router.server.proxy;

import java.io.OutputStream;
import java.util.Locale;
import java.util.Set;

import io.helidon.http.Header;
import io.helidon.http.Status;

/**
 * A {@link ClientAnswer} through Helidon's HTTP/2 response: the same answers as over HTTP/1, less
 * the fields that speak of an HTTP/1 connection, which an HTTP/2 message must not carry (RFC 9113,
 * section 8.2.2; a client treats an answer with them as malformed). The router's
 * {@code Connection: close} after an unread body becomes the end of the stream.
 */
record Http2Answer(ClientAnswer answer) implements ClientAnswer {

    private static final Set<String> CONNECTION_SPECIFIC = Set.of(
            "connection", "keep-alive", "proxy-connection", "transfer-encoding", "upgrade");

    @Override
    public void status(Status status) {
        answer.status(status);
    }

    @Override
    public Status status() {
        return answer.status();
    }

    @Override
    public void header(Header header) {
        if (!CONNECTION_SPECIFIC.contains(header.name().toLowerCase(Locale.ROOT))) {
            answer.header(header);
        }
    }

    @Override
    public void clearHeaders() {
        answer.clearHeaders();
    }

    @Override
    public void send() {
        answer.send();
    }

    @Override
    public void send(byte[] body) {
        answer.send(body);
    }

    @Override
    public OutputStream outputStream() {
        return answer.outputStream();
    }

    @Override
    public long bytesWritten() {
        return answer.bytesWritten();
    }
}
