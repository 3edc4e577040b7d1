package io.insika.router.distribution;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.net.URI;
import java.util.concurrent.CountDownLatch;

import io.helidon.webserver.WebServer;
import io.helidon.webserver.http.ServerRequest;
import io.helidon.webserver.http.ServerResponse;

/**
 * A real backend on a free loopback port that answers every request with its name; {@code /slow}
 * answers only after {@code ms} milliseconds, and counts down {@link #slowStarted} on arrival.
 */
final class WhoAmIBackend implements AutoCloseable {

    final String name;
    final CountDownLatch slowStarted = new CountDownLatch(1);
    private final WebServer server;

    WhoAmIBackend(String name) {
        this.name = name;
        this.server = WebServer.builder()
                .host("127.0.0.1")
                .port(0)
                .shutdownHook(false)
                .featuresDiscoverServices(false)
                .routing(routing -> routing
                        .get("/slow", this::slow)
                        .any(this::answer))
                .build()
                .start();
    }

    URI uri() {
        return URI.create("http://127.0.0.1:" + server.port());
    }

    /** The backend id the router hashes: {@code host:port}. */
    String id() {
        return "127.0.0.1:" + server.port();
    }

    private void answer(ServerRequest req, ServerResponse res) {
        try (InputStream body = req.content().inputStream()) {
            body.transferTo(OutputStream.nullOutputStream());
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        res.send(name);
    }

    private void slow(ServerRequest req, ServerResponse res) throws InterruptedException {
        slowStarted.countDown();
        Thread.sleep(Long.parseLong(req.query().get("ms")));
        res.send(name + " after a while");
    }

    @Override
    public void close() {
        server.stop();
    }
}
