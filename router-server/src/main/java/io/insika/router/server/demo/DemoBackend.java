package io.insika.router.server.demo;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.net.URI;

import io.helidon.http.HeaderValues;
import io.helidon.webserver.WebServer;
import io.helidon.webserver.http.ServerRequest;
import io.helidon.webserver.http.ServerResponse;

/**
 * A stand-in for a stateful backend: answers every request with one JSON line naming itself, so
 * whoever sends requests through the router sees which backend got each one.
 */
public final class DemoBackend implements AutoCloseable {

    private final String name;
    private final WebServer server;

    private DemoBackend(String name, WebServer server) {
        this.name = name;
        this.server = server;
    }

    /**
     * Starts on a free loopback port.
     *
     * @param name how it introduces itself, such as {@code demo-1}
     * @return the running backend
     */
    public static DemoBackend start(String name) {
        WebServer server = WebServer.builder()
                .host("127.0.0.1")
                .port(0)
                .shutdownHook(false)
                .featuresDiscoverServices(false)
                .routing(routing -> routing.any((req, res) -> answer(name, req, res)))
                .build()
                .start();
        return new DemoBackend(name, server);
    }

    private static void answer(String name, ServerRequest req, ServerResponse res) {
        try (InputStream body = req.content().inputStream()) {
            body.transferTo(OutputStream.nullOutputStream());
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        res.header(HeaderValues.CONTENT_TYPE_JSON)
                .send("{\"backend\":\"" + name + "\",\"method\":\"" + req.prologue().method().text()
                        + "\",\"path\":\"" + req.path().rawPath() + "\"}\n");
    }

    public String name() {
        return name;
    }

    public URI uri() {
        return URI.create("http://127.0.0.1:" + server.port());
    }

    @Override
    public void close() {
        server.stop();
    }
}
