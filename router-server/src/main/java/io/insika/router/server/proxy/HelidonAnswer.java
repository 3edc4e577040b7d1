package io.insika.router.server.proxy;

import java.io.OutputStream;

import io.helidon.http.Header;
import io.helidon.http.Status;
import io.helidon.webserver.http.ServerResponse;

/** A {@link ClientAnswer} through Helidon's HTTP/1 response. */
record HelidonAnswer(ServerResponse response) implements ClientAnswer {

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
        response.header(header);
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
        return response.outputStream();
    }

    @Override
    public long bytesWritten() {
        return response.bytesWritten();
    }
}
