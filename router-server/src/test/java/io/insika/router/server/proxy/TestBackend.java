package io.insika.router.server.proxy;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.time.Duration;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

import io.helidon.http.HeaderNames;
import io.helidon.http.Status;
import io.helidon.webserver.CloseConnectionException;
import io.helidon.webserver.WebServer;
import io.helidon.webserver.http.ServerRequest;
import io.helidon.webserver.http.ServerResponse;
import io.insika.router.api.Backend;

/**
 * A real HTTP backend on a loopback port that answers who it is. Its default answer is
 * {@code <name> <body length> <body sha256>}, with the header {@code X-Backend: <name>}, so a test
 * can check both where a request went and that its body arrived intact.
 */
final class TestBackend implements AutoCloseable {

    final String name;
    final AtomicInteger hits = new AtomicInteger();
    final Map<String, List<String>> lastHeaders = new ConcurrentHashMap<>();
    volatile String lastRawPath = "";
    /** The router-side ports the requests came from: one per connection the router opened. */
    final java.util.Set<Integer> peerPorts = ConcurrentHashMap.newKeySet();
    volatile String lastRawQuery = "";
    /** Released by the test once it has seen an SSE event; the backend waits for it before the next. */
    final Semaphore sseProceed = new Semaphore(0);
    /** A request with the header {@code X-Hold} waits for one permit (at most 10 s) before it is answered. */
    final Semaphore holdRelease = new Semaphore(0);
    /** Requests waiting on {@link #holdRelease} now. */
    final AtomicInteger holding = new AtomicInteger();
    /** What {@code GET /healthz} answers: 200 unless a test says otherwise. */
    volatile int healthStatus = 200;
    /** How many health checks it was asked. */
    final AtomicInteger healthChecks = new AtomicInteger();
    /** Counted down when a streaming answer found its client gone. */
    final CountDownLatch streamAbandoned = new CountDownLatch(1);
    private final WebServer server;
    private final int port;

    private TestBackend(String name, int port) {
        this(name, port, Duration.ofMinutes(5));
    }

    private TestBackend(String name, int port, Duration keepAliveTimeout) {
        this.name = name;
        this.server = WebServer.builder()
                .host("127.0.0.1")
                .port(port)
                .idleConnectionTimeout(keepAliveTimeout)
                .idleConnectionPeriod(keepAliveTimeout.dividedBy(2))
                .shutdownHook(false)
                .contentEncoding(PassThroughEncoding.INSTANCE) // a backend that takes any coding as bytes
                .routing(routing -> routing
                        .get("/sse", this::sse)
                        .get("/endless", this::endless)
                        .get("/broken", this::broken)
                        .get("/silent", this::silent)
                        .get("/healthz", this::health)
                        .any("/status/{code}", this::status)
                        .get("/bytes/{count}", this::bytes)
                        .any(this::echo))
                .build()
                .start();
        this.port = server.port(); // a stopped server reports -1; a restart needs the old port
    }

    static TestBackend start(String name) {
        return new TestBackend(name, 0);
    }

    /** A backend that closes connections idle longer than its keep-alive timeout, as Node.js does after 5 s. */
    static TestBackend withKeepAliveTimeout(String name, Duration keepAliveTimeout) {
        return new TestBackend(name, 0, keepAliveTimeout);
    }

    /** A new backend on the port a stopped one used: a restarted process. */
    static TestBackend restart(TestBackend stopped) {
        return new TestBackend(stopped.name, stopped.port());
    }

    int port() {
        return port;
    }

    Backend backend() {
        return Backend.of(URI.create("http://127.0.0.1:" + port()));
    }

    @Override
    public void close() {
        server.stop();
    }

    private void echo(ServerRequest request, ServerResponse response) throws IOException {
        hits.incrementAndGet();
        lastHeaders.clear();
        request.headers().forEach(h -> lastHeaders.put(h.headerName().lowerCase(), h.allValues()));
        lastRawPath = request.prologue().uriPath().rawPath();
        peerPorts.add(request.remotePeer().port());
        lastRawQuery = request.prologue().query().rawValue();
        if (request.headers().contains(HeaderNames.create("X-Hold"))) {
            hold();
        }
        String digest;
        long length = 0;
        try (InputStream body = request.content().inputStream()) {
            MessageDigest sha = sha256();
            byte[] buffer = new byte[65536];
            int n;
            while ((n = body.read(buffer)) >= 0) {
                sha.update(buffer, 0, n);
                length += n;
            }
            digest = HexFormat.of().formatHex(sha.digest());
        }
        response.header("X-Backend", name);
        response.send(name + " " + length + " " + digest);
    }

    private void bytes(ServerRequest request, ServerResponse response) throws IOException {
        hits.incrementAndGet();
        long count = Long.parseLong(request.path().pathParameters().get("count"));
        response.header("X-Backend", name);
        response.header(HeaderNames.CONTENT_LENGTH, String.valueOf(count));
        byte[] block = new byte[1 << 16];
        try (OutputStream out = response.outputStream()) {
            for (long left = count; left > 0; left -= block.length) {
                out.write(block, 0, (int) Math.min(block.length, left));
            }
        }
    }

    private void status(ServerRequest request, ServerResponse response) {
        hits.incrementAndGet();
        response.header("X-Backend", name);
        response.status(Status.create(Integer.parseInt(request.path().pathParameters().get("code"))));
        response.send();
    }

    // Writes event i, then waits until the test has received it: buffering anywhere would deadlock.
    private void sse(ServerRequest request, ServerResponse response) throws Exception {
        hits.incrementAndGet();
        response.header("X-Backend", name);
        response.header(HeaderNames.CONTENT_TYPE, "text/event-stream");
        try (OutputStream out = response.outputStream()) {
            for (int i = 0; i < 5; i++) {
                out.write(("data: event-" + i + "\n\n").getBytes(StandardCharsets.UTF_8));
                out.flush();
                if (i < 4 && !sseProceed.tryAcquire(30, TimeUnit.SECONDS)) {
                    throw new IllegalStateException("the test never saw event-" + i);
                }
            }
        }
    }

    private void endless(ServerRequest request, ServerResponse response) throws Exception {
        hits.incrementAndGet();
        response.header(HeaderNames.CONTENT_TYPE, "text/event-stream");
        OutputStream out = response.outputStream();
        try {
            for (int i = 0; i < 3000; i++) {
                out.write(("data: tick-" + i + "\n\n").getBytes(StandardCharsets.UTF_8));
                out.flush();
                Thread.sleep(10);
            }
        } catch (RuntimeException | IOException e) {
            streamAbandoned.countDown();
            throw new CloseConnectionException("client gone", e);
        }
        out.close();
    }

    private void broken(ServerRequest request, ServerResponse response) throws IOException {
        hits.incrementAndGet();
        OutputStream out = response.outputStream();
        out.write("partial answer".getBytes(StandardCharsets.UTF_8));
        out.flush();
        throw new CloseConnectionException("backend dies mid-response");
    }

    private void hold() {
        holding.incrementAndGet();
        try {
            holdRelease.tryAcquire(10, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } finally {
            holding.decrementAndGet();
        }
    }

    private void health(ServerRequest request, ServerResponse response) {
        healthChecks.incrementAndGet();
        response.status(Status.create(healthStatus)).send(name + " health");
    }

    private void silent(ServerRequest request, ServerResponse response) throws InterruptedException {
        hits.incrementAndGet();
        Thread.sleep(5_000);
        response.send("too late");
    }

    static MessageDigest sha256() {
        try {
            return MessageDigest.getInstance("SHA-256");
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }

    static String sha256Hex(byte[] bytes) {
        return HexFormat.of().formatHex(sha256().digest(bytes));
    }
}
