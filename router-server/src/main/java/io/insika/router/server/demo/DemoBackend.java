package io.insika.router.server.demo;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.lang.System.Logger.Level;
import java.net.URI;
import java.time.Duration;

import io.helidon.http.HeaderValues;
import io.helidon.webserver.WebServer;
import io.helidon.webserver.http.ServerRequest;
import io.helidon.webserver.http.ServerResponse;

/**
 * A stand-in for a stateful backend: answers every request with one JSON line naming itself, so
 * whoever sends requests through the router sees which backend got each one.
 *
 * <p>{@code POST /demo/stop} on its own port stops it for {@link #STOPPED_FOR}, as a crashed
 * process that restarts would: the router's health handling can be watched at work.
 */
public final class DemoBackend implements AutoCloseable {

    /** How long {@code POST /demo/stop} keeps it down. */
    public static final Duration STOPPED_FOR = Duration.ofSeconds(15);
    static final String STOP_PATH = "/demo/stop";
    private static final System.Logger LOGGER = System.getLogger(DemoBackend.class.getName());

    private final String name;
    private final int port;
    private volatile WebServer server;
    private volatile boolean closed;

    private DemoBackend(String name, int port) {
        this.name = name;
        this.server = listen(port);
        this.port = server.port();
    }

    /**
     * Starts on a free loopback port.
     *
     * @param name how it introduces itself, such as {@code demo-1}
     * @return the running backend
     */
    public static DemoBackend start(String name) {
        return new DemoBackend(name, 0);
    }

    private WebServer listen(int onPort) {
        return WebServer.builder()
                .host("127.0.0.1")
                .port(onPort)
                .shutdownHook(false)
                .featuresDiscoverServices(false)
                .routing(routing -> routing.post(STOP_PATH, this::stop).any(this::answer))
                .build()
                .start();
    }

    private void answer(ServerRequest req, ServerResponse res) {
        try (InputStream body = req.content().inputStream()) {
            body.transferTo(OutputStream.nullOutputStream());
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        res.header(HeaderValues.CONTENT_TYPE_JSON)
                .send("{\"backend\":\"" + name + "\",\"method\":\"" + req.prologue().method().text()
                        + "\",\"path\":\"" + req.path().rawPath() + "\"}\n");
    }

    // Answers first, then goes away; comes back on the same port, as a restarted pod on its address.
    // ?for=N sets the seconds, 1 to 300.
    private void stop(ServerRequest req, ServerResponse res) {
        Duration downFor = req.query().first("for").asOptional().flatMap(DemoBackend::seconds).orElse(STOPPED_FOR);
        res.header(HeaderValues.CONTENT_TYPE_JSON).send("{\"backend\":\"" + name + "\",\"stopped-for-seconds\":"
                + downFor.toSeconds() + "}\n");
        WebServer stopping = server;
        Thread.ofVirtual().name("demo-restart").start(() -> {
            try {
                Thread.sleep(100);
                stopping.stop();
                LOGGER.log(Level.INFO, "demo backend {0} stopped for {1} s", name, downFor.toSeconds());
                Thread.sleep(downFor);
            } catch (InterruptedException e) {
                return;
            }
            if (!closed) {
                server = listen(port);
                LOGGER.log(Level.INFO, "demo backend {0} is back", name);
            }
        });
    }

    private static java.util.Optional<Duration> seconds(String text) {
        try {
            int seconds = Integer.parseInt(text.trim());
            return seconds >= 1 && seconds <= 300 ? java.util.Optional.of(Duration.ofSeconds(seconds))
                    : java.util.Optional.empty();
        } catch (NumberFormatException e) {
            return java.util.Optional.empty();
        }
    }

    public String name() {
        return name;
    }

    public URI uri() {
        return URI.create("http://127.0.0.1:" + port);
    }

    @Override
    public void close() {
        closed = true;
        server.stop();
    }
}
