package io.insika.router.server.proxy;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.util.OptionalLong;

import io.helidon.http.Header;
import io.helidon.http.Method;
import io.helidon.webclient.api.HttpClientResponse;
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

    static void relay(Method method, ServerResponse response, HttpClientResponse answer) {
        response.status(answer.status());
        HopByHopHeaders hopByHop = HopByHopHeaders.of(answer.headers());
        for (Header header : answer.headers()) {
            if (!hopByHop.excludes(header)) {
                response.header(header);
            }
        }
        int code = answer.status().code();
        if (method == Method.HEAD || code == 204 || code == 304 || code < 200) {
            response.send();
            return;
        }
        OptionalLong length = answer.headers().contentLength();
        streamBody(answer.inputStream(), response.outputStream(), length);
    }

    // Streams as it arrives; a body of unknown length (SSE, chunked) is flushed after every read so
    // each event reaches the client as soon as the backend wrote it.
    private static void streamBody(InputStream from, OutputStream to, OptionalLong length) {
        byte[] buffer = new byte[BodyPeek.copyBufferSize(length.isPresent() ? length.getAsLong() : -1)];
        long copied = 0;
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
            copied += n;
            try {
                to.write(buffer, 0, n);
                if (flushEachRead) {
                    to.flush();
                }
            } catch (IOException | RuntimeException e) {
                throw new CloseConnectionException("client went away mid-response", e);
            }
        }
        if (length.isPresent() && copied != length.getAsLong()) {
            throw new CloseConnectionException("backend sent " + copied + " of " + length.getAsLong() + " bytes");
        }
        try {
            to.close();
        } catch (IOException | RuntimeException e) {
            throw new CloseConnectionException("client went away mid-response", e);
        }
    }
}
