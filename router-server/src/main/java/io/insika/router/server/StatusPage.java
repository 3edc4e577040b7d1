package io.insika.router.server;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;

import io.helidon.http.HeaderNames;
import io.helidon.http.HeaderValues;
import io.helidon.webserver.http.Handler;
import io.helidon.webserver.http.ServerRequest;
import io.helidon.webserver.http.ServerResponse;

/**
 * {@code GET /} on the admin port: one self-contained HTML page (no framework, no external
 * assets) that shows the backends, their state and slots, the share of keys each owns, request
 * rates by placement, errors, the ring fingerprint and the version, and refreshes itself every
 * two seconds from {@code /observe/backends} and {@code /observe/metrics}. The page is read
 * once at start; it adds no data path of its own.
 */
final class StatusPage implements Handler {

    static final String PATH = "/";

    private final byte[] html;

    StatusPage() {
        try (InputStream in = StatusPage.class.getResourceAsStream("status.html")) {
            if (in == null) {
                throw new IllegalStateException("status.html is missing from the router's jar");
            }
            html = in.readAllBytes();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    @Override
    public void handle(ServerRequest request, ServerResponse response) {
        response.header(HeaderValues.create(HeaderNames.CONTENT_TYPE, "text/html; charset=utf-8"));
        response.header(HeaderValues.create(HeaderNames.CACHE_CONTROL, "no-store"));
        response.send(html);
    }
}
