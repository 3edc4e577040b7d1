package io.insika.router.server.proxy;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.util.OptionalLong;

import io.helidon.http.Header;
import io.helidon.http.Status;
import io.helidon.webserver.CloseConnectionException;
import io.helidon.webserver.http.ServerResponse;

/**
 * Copies a backend's answer to the client as it arrives: status, end-to-end headers, body.
 * Anything that breaks once the answer has started closes the client connection, so a cut
 * answer never looks complete.
 */
final class ResponseRelay {

    private ResponseRelay() {
    }

    /**
     * Relays an answer whose head was read.
     *
     * @return whether the backend connection ended cleanly and may carry another request
     * @throws CloseConnectionException if the backend or the client failed mid-answer
     */
    static boolean relay(ServerResponse response, ResponseHead head, ResponseBody body) {
        response.status(Status.create(head.status()));
        HopByHopHeaders hopByHop = HopByHopHeaders.of(head.headers());
        for (Header header : head.headers()) {
            if (!hopByHop.excludes(header)) {
                response.headers().add(header); // add, not set: Set-Cookie comes once per cookie
            }
        }
        if (body.isEmpty()) {
            response.send();
            return head.keepAlive();
        }
        streamBody(body, response.outputStream(), body.declaredLength());
        return head.keepAlive() && body.complete();
    }

    // Streams as it arrives; a body of unknown length (SSE, chunked) is flushed after every read so
    // each event reaches the client as soon as the backend wrote it.
    private static void streamBody(InputStream from, OutputStream to, OptionalLong length) {
        byte[] buffer = new byte[BodyPeek.copyBufferSize(length.isPresent() ? length.getAsLong() : -1)];
        boolean flushEachRead = length.isEmpty();
        while (true) {
            int n;
            try {
                n = from.read(buffer);
            } catch (IOException | UncheckedIOException e) {
                throw new CloseConnectionException("backend failed mid-response", e);
            }
            if (n < 0) {
                break;
            }
            try {
                to.write(buffer, 0, n);
                if (flushEachRead) {
                    to.flush();
                }
            } catch (IOException | RuntimeException e) {
                throw new CloseConnectionException("client went away mid-response", e);
            }
        }
        try {
            to.close();
        } catch (IOException | RuntimeException e) {
            throw new CloseConnectionException("client went away mid-response", e);
        }
    }
}
