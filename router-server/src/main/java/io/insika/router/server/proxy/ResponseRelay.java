package io.insika.router.server.proxy;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.util.List;
import java.util.OptionalLong;
import java.util.function.UnaryOperator;

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
     * @param watch wraps the client's stream, so a client that stops reading is cut
     * @return whether the backend connection ended cleanly and may carry another request
     * @throws CloseConnectionException if the backend or the client failed mid-answer
     */
    static boolean relay(ServerResponse response, ResponseHead head, ResponseBody body,
                         UnaryOperator<OutputStream> watch) {
        response.status(Status.create(head.status()));
        HopByHopHeaders hopByHop = HopByHopHeaders.of(head.headers());
        List<Header> headers = head.headers();
        for (int i = 0; i < headers.size(); i++) {
            Header header = headers.get(i);
            if (hopByHop.excludes(header)) {
                continue;
            }
            // The first line of a name replaces what Helidon may have preset (Content-Length);
            // later lines add to it, so each Set-Cookie survives.
            if (seenBefore(headers, i)) {
                response.headers().add(header);
            } else {
                response.header(header);
            }
        }
        if (body.isEmpty()) {
            response.send();
            return head.keepAlive();
        }
        streamBody(body, watch.apply(response.outputStream()), body.declaredLength());
        return head.keepAlive() && body.complete();
    }

    private static boolean seenBefore(List<Header> headers, int index) {
        String name = headers.get(index).headerName().lowerCase();
        for (int i = 0; i < index; i++) {
            if (headers.get(i).headerName().lowerCase().equals(name)) {
                return true;
            }
        }
        return false;
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
                throw new BackendBrokeException("backend failed mid-response", e);
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
                throw new ClientLeftException("client went away mid-response", e);
            }
        }
        try {
            to.close();
        } catch (IOException | RuntimeException e) {
            throw new ClientLeftException("client went away mid-response", e);
        }
    }
}
