package io.insika.router.server.proxy;

import java.io.OutputStream;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;

import io.helidon.http.HeaderNames;
import io.helidon.http.Status;
import io.helidon.webserver.WebServer;
import io.helidon.webserver.http.ServerRequest;
import io.helidon.webserver.http.ServerResponse;
import io.insika.router.api.Backend;

/**
 * A real backend on a loopback port that mints its own session ids, as an MCP server or a web
 * application does. {@code /mcp}: a request without {@code Mcp-Session-Id} is an initialize and
 * gets a new id in that header; one with an id it did not mint gets 404, one it minted its
 * name and the id; {@code GET} with an id opens an event stream, {@code DELETE} ends the session.
 * {@code /app}: the same with the cookie {@code SESSIONID}, set with attributes. A request with
 * {@code X-Mint: VALUE} is answered with that value set, whatever it carried; one with
 * {@code X-Set-Cookie: FIELD} gets that {@code Set-Cookie} field as it is.
 *
 * <p>It serves other spellings of those paths as a lenient server does (Express reads paths
 * without case and with or without a trailing slash, a Servlet container drops {@code ;}
 * parameters): {@code /MCP}, {@code /mcp/} and {@code /mcp;x} are {@code /mcp} to it. Any other
 * path is a 404 that still says who answered, and takes {@code X-Mint} too.
 */
final class MintingBackend implements AutoCloseable {

    static final String HEADER = "Mcp-Session-Id";
    static final String COOKIE_ATTRIBUTES = "; Path=/app; HttpOnly;  SameSite=Lax; Max-Age=3600";

    final String name;
    final AtomicInteger hits = new AtomicInteger();
    /** The headers of the last request, by lower-case name, each with all its field values. */
    final Map<String, List<String>> lastHeaders = new ConcurrentHashMap<>();
    /** The path of the last request, as the router sent it. */
    volatile String lastRawPath = "";
    private final Map<String, Boolean> sessions = new ConcurrentHashMap<>();
    private final AtomicInteger minted = new AtomicInteger();
    private final WebServer server;

    private MintingBackend(String name) {
        this.name = name;
        this.server = WebServer.builder()
                .host("127.0.0.1")
                .port(0)
                .shutdownHook(false)
                .routing(routing -> routing.any("/mcp", this::mcp).any("/app", this::app).any(this::lenient))
                .build()
                .start();
    }

    static MintingBackend start(String name) {
        return new MintingBackend(name);
    }

    Backend backend() {
        return Backend.of(URI.create("http://127.0.0.1:" + server.port()));
    }

    @Override
    public void close() {
        server.stop();
    }

    private String mint() {
        String id = name + "-session-" + minted.incrementAndGet();
        sessions.put(id, true);
        return id;
    }

    private void record(ServerRequest request) {
        hits.incrementAndGet();
        lastHeaders.clear();
        request.headers().forEach(h -> lastHeaders.put(h.headerName().lowerCase(), h.allValues()));
        lastRawPath = request.prologue().uriPath().rawPath();
        request.content().consume();
    }

    private void lenient(ServerRequest request, ServerResponse response) throws Exception {
        String path = request.prologue().uriPath().rawPath().replaceAll(";[^/]*", "").toLowerCase(Locale.ROOT);
        path = path.length() > 1 && path.endsWith("/") ? path.substring(0, path.length() - 1) : path;
        switch (path) {
            case "/mcp" -> mcp(request, response);
            case "/app" -> app(request, response);
            default -> {
                record(request);
                response.header("X-Backend", name);
                request.headers().first(HeaderNames.create("X-Mint"))
                        .ifPresent(forced -> response.header(HEADER, forced));
                response.status(Status.NOT_FOUND_404).send(name + " has no " + lastRawPath);
            }
        }
    }

    private void mcp(ServerRequest request, ServerResponse response) throws Exception {
        record(request);
        response.header("X-Backend", name);
        String forced = request.headers().first(HeaderNames.create("X-Mint")).orElse(null);
        if (forced != null) {
            response.header(HEADER, forced).send(name + " minted");
            return;
        }
        String id = request.headers().first(HeaderNames.create(HEADER)).orElse(null);
        if (id == null) {
            response.header(HEADER, mint()).send(name + " initialized");
            return;
        }
        if (!sessions.containsKey(id)) {
            response.status(Status.NOT_FOUND_404).send(name + " does not know " + id);
            return;
        }
        switch (request.prologue().method().text()) {
            case "DELETE" -> {
                sessions.remove(id);
                response.send(name + " ended " + id);
            }
            case "GET" -> {
                response.header(HeaderNames.CONTENT_TYPE, "text/event-stream");
                try (OutputStream out = response.outputStream()) {
                    out.write(("data: " + name + " " + id + "\n\n").getBytes(StandardCharsets.UTF_8));
                }
            }
            default -> response.header(HEADER, id).send(name + " " + id);
        }
    }

    private void app(ServerRequest request, ServerResponse response) {
        record(request);
        response.header("X-Backend", name);
        String field = request.headers().first(HeaderNames.create("X-Set-Cookie")).orElse(null);
        if (field != null) {
            response.header(HeaderNames.SET_COOKIE, field).send(name + " set a cookie");
            return;
        }
        String forced = request.headers().first(HeaderNames.create("X-Mint")).orElse(null);
        if (forced != null) {
            response.header(HeaderNames.SET_COOKIE, "SESSIONID=" + forced + COOKIE_ATTRIBUTES).send(name + " minted");
            return;
        }
        String id = request.headers().cookies().first("SESSIONID").orElse(null);
        if (id == null) {
            response.header(HeaderNames.SET_COOKIE, "theme=dark; Path=/", "SESSIONID=" + mint() + COOKIE_ATTRIBUTES);
            response.send(name + " initialized");
            return;
        }
        response.send(sessions.containsKey(id) ? name + " " + id : name + " does not know " + id);
    }
}
