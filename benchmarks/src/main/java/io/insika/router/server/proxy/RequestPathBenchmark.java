package io.insika.router.server.proxy;

import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.TimeUnit;

import io.helidon.common.buffers.DataReader;
import io.insika.router.server.Router;
import io.insika.router.server.Version;
import io.insika.router.server.backends.BackendStates;
import io.insika.router.server.config.RouterConfig;
import io.insika.router.server.config.RouterConfigLoader;
import io.insika.router.server.config.StaticBackends;
import io.insika.router.server.discovery.StaticBackendDiscovery;
import io.insika.router.server.metrics.BackendMeters;
import io.insika.router.server.metrics.Placement;
import io.insika.router.server.metrics.RouterMetrics;
import io.insika.router.server.plugin.PluginRegistry;
import io.insika.router.server.routing.BackendPool;
import io.insika.router.server.routing.RouteTable;
import io.insika.router.server.upstream.InMemoryConnection;
import io.insika.router.server.upstream.RequestWriter;
import io.insika.router.server.upstream.ResponseBody;
import io.insika.router.server.upstream.ResponseHead;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Warmup;

/**
 * One proxied request of {@code bench/sessions.lua} through the lean HTTP/1 path, step by step,
 * without sockets: the router's own work per request, which the wrk runs cannot tell from the
 * kernel's. The router is built from the embedded default configuration (the shipped routes:
 * {@code json-field user} on {@code POST /v1/responses}, ketama) over the bench's three
 * backends; the real parsers, writers, placer, relay and metrics run, and only the sockets are
 * arrays ({@link InMemoryConnection}, {@link ClientSocketSink}, a {@link DataReader} over the
 * request's bytes).
 *
 * <p>The steps follow the request in order and share nothing per request, so their sum can be
 * held against {@link #wholeRequest}: {@code step2} makes the body's peek and places the request
 * as {@code ProxyCall.openBody} and {@code place} do; {@code step5} makes the request's objects
 * (its {@code ProxyCall}, {@code LeanAnswer}) and relays the answer. In this package, in the
 * benchmarks module: the path's classes are package-private, and main code gets no member for a
 * benchmark.
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Fork(1)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
public class RequestPathBenchmark {

    private static final String BACKENDS = "http://127.0.0.1:18081,http://127.0.0.1:18082,http://127.0.0.1:18083";
    private static final String OWN_PATH = "/up";

    private ProxyHandler handler;
    private ProxyParts parts;
    private RouterMetrics metrics;
    private InetSocketAddress peer;
    // the connection's: the reader over what the client sends, the head's scratch, the writer and
    // the buffers its answers take in turn
    private DataReader clientRequests;
    private DataReader clientBodies;
    private final byte[] scratch = new byte[1024];
    private final ClientSocketSink client = new ClientSocketSink();
    private final LeanAnswer.Scratch answers = new LeanAnswer.Scratch();
    private InMemoryConnection backend;
    private InMemoryConnection backendBody;
    private InMemoryConnection chunkedBody;
    private ResponseHead chunkedHead;
    // made once, for the steps that start from them
    private LeanHead head;
    private ProxyCall placedCall;
    private ResponseHead answerHead;
    private BackendMeters meters;

    @Setup
    public void setUp() throws IOException {
        PluginRegistry registry = PluginRegistry.load(RequestPathBenchmark.class.getClassLoader());
        RouterConfig config = new RouterConfigLoader(registry).load(Optional.empty(),
                Map.of("INSIKA_ROUTER_BACKENDS", BACKENDS));
        RouteTable routes = RouteTable.build(config.routes(), registry);
        BackendPool pool = Router.newPool(config, registry);
        StaticBackendDiscovery.replace((StaticBackends) config.backends(), pool);
        metrics = new RouterMetrics(routes.routes(), pool::snapshot, Version.current());
        handler = new ProxyHandler(routes, pool, new BackendStates(config.proxy().capacity(), config.proxy().health()),
                config.proxy(), metrics);
        parts = handler.parts();
        peer = new InetSocketAddress(InetAddress.getByAddress(new byte[] {127, 0, 0, 1}), 43_210);
        clientRequests = DataReader.create(() -> SessionsTraffic.REQUEST);
        clientBodies = DataReader.create(() -> SessionsTraffic.BODY);
        backend = InMemoryConnection.answering(SessionsTraffic.ANSWER);
        backendBody = InMemoryConnection.answering(SessionsTraffic.ANSWER_BODY);

        head = LeanHead.parse(SessionsTraffic.REQUEST, SessionsTraffic.HEAD_END, OWN_PATH, this::authority);
        placedCall = parts.call(request(head, clientBodies),
                new LeanAnswer(client, new LeanAnswer.Scratch(), false, false));
        placedCall.openBody();
        if (!(placedCall.place() instanceof Placed.Admitted admitted) || admitted.lookup().how() != Placement.KEY) {
            throw new IllegalStateException("the request was not placed by its key: " + placedCall.placed());
        }
        backend.rewind();
        answerHead = backend.readHead();
        chunkedHead = InMemoryConnection.answering(SessionsTraffic.CHUNKED_ANSWER_HEAD).readHead();
        chunkedBody = InMemoryConnection.answering(SessionsTraffic.CHUNKED_ANSWER_BODY);
        meters = metrics.backend(admitted.backend());
        placedCall.backendAnswered(meters, 1_000);
        check();
    }

    @TearDown
    public void tearDown() {
        handler.close();
    }

    /** Step 1: the client's head, parsed and checked from its bytes. */
    @Benchmark
    public Object step1ClientHead() {
        return LeanHead.parse(SessionsTraffic.REQUEST, SessionsTraffic.HEAD_END, OWN_PATH, this::authority);
    }

    /** Step 2: the route, the key peeked from the body by json-field, its ketama owner, the slot. */
    @Benchmark
    public Object step2Place() {
        BodyPeek body = new BodyPeek(parts.watchdog().watch(new LeanBody(clientBodies, head.contentLength())),
                parts.settings().bodyMaxBytes(), head.headers().contentLength().orElse(-1), parts.peekBudget());
        Placed placed = parts.placer().locate(RequestTarget.of(head.prologue()), head.headers(), body,
                Placer.Slot.REQUEST);
        parts.placer().count(placed);
        SlotHold.of(((Placed.Admitted) placed).slot()).run();
        body.releaseBudget();
        return placed;
    }

    /** Step 3: the backend's request head (forwarded headers) and the peeked body, written to its connection. */
    @Benchmark
    public Object step3BackendRequest() throws IOException {
        backend.rewind();
        RequestWriter writer = backend.request();
        writer.requestLine(placedCall.request().prologue().method().text(), placedCall.target().originForm());
        ForwardedHeaders.copy(placedCall, HopByHopHeaders.of(placedCall.request().headers()), writer);
        writer.endHead(SessionsTraffic.BODY.length);
        writer.write(SessionsTraffic.BODY, 0, SessionsTraffic.BODY.length); // what BodyPeek.forwardPeeked writes
        writer.finish();
        return writer;
    }

    /** Step 4: the backend's answer head, parsed and checked from its bytes. */
    @Benchmark
    public Object step4BackendHead() throws IOException {
        backend.rewind();
        return backend.readHead();
    }

    /** Step 5: the request's objects, and the backend's answer relayed to the client: head and body. */
    @Benchmark
    public boolean step5ClientAnswer() throws IOException {
        return answer(answerHead, backendBody);
    }

    /** Step 5 for an answer of unknown length, in chunks, as Node's and Python's servers answer. */
    @Benchmark
    public boolean step5ClientAnswerChunked() throws IOException {
        return answer(chunkedHead, chunkedBody);
    }

    // A fresh call relaying this answer: its head parsed once, its body read again from the start
    private boolean answer(ResponseHead answer, InMemoryConnection body) throws IOException {
        client.clear();
        body.rewind();
        ProxyCall call = parts.call(request(head, clientBodies),
                new LeanAnswer(client, answers, head.close(), head.http10()));
        return ResponseRelay.relay(call, answer, body.body(answer, false));
    }

    /** Step 6: the request's counts: begun, its backend's answer, ended (ProxyCall.end; no access log). */
    @Benchmark
    public Object step6Count() {
        metrics.requestStarted();
        meters.answered(200, 1_000);
        placedCall.backendAnswered(meters, 1_000);
        ((Placed.Admitted) placedCall.placed()).slot().answered();
        placedCall.ended(Outcome.RELAYED);
        placedCall.end();
        metrics.requestEnded();
        return placedCall;
    }

    /**
     * The whole request as the lean connection, {@code ProxyHandler.proxy} and
     * {@code BackendForwarder.forward} take it, in one: the head found in what the client sent and
     * parsed, the body peeked for the key, the request placed, written to the backend, its answer
     * read and relayed, the request counted.
     */
    @Benchmark
    public boolean wholeRequest() throws IOException {
        client.clear();
        int end = awaitHead();
        LeanHead lean = LeanHead.parse(scratch, end, OWN_PATH, this::authority);
        clientRequests.skip(end);
        ProxyCall call = parts.call(request(lean, clientRequests),
                new LeanAnswer(client, answers, lean.close(), lean.http10()));
        metrics.requestStarted();
        call.openBody();
        Placed.Admitted admitted = (Placed.Admitted) call.place();
        BodyPeek body = call.body();
        body.requireClient();

        backend.rewind();
        RequestWriter writer = backend.request();
        long sending = System.nanoTime();
        writer.requestLine(call.request().prologue().method().text(), call.target().originForm());
        ForwardedHeaders.copy(call, HopByHopHeaders.of(call.request().headers()), writer);
        writer.endHead(body.declaredLength());
        body.forwardPeeked(writer);
        body.forwardRest(writer);
        writer.finish();
        ResponseHead answer = backend.readHead();
        long headNanos = System.nanoTime() - sending;
        BackendMeters backendMeters = metrics.backend(admitted.backend());
        backendMeters.answered(answer.status(), headNanos);
        call.backendAnswered(backendMeters, headNanos);
        admitted.slot().answered();
        boolean reusable = ResponseRelay.relay(call, answer,
                backend.body(answer, call.isHead() || ResponseBody.bodiless(answer.status())));

        call.ended(Outcome.RELAYED);
        call.end();
        metrics.requestEnded();
        return reusable;
    }

    // What LeanHttp1Connection.serve makes of a parsed head
    private ClientRequest request(LeanHead lean, DataReader reader) {
        return new ClientRequest(lean.prologue(), lean.headers(), peer, false,
                new LeanBody(reader, lean.contentLength()));
    }

    // LeanHttp1Connection.awaitHead: the head's bytes peeked into the connection's scratch, up to its empty line
    private int awaitHead() {
        clientRequests.ensureAvailable();
        int n = Math.min(clientRequests.available(), scratch.length);
        clientRequests.getBuffer(n).read(scratch, 0, n);
        for (int i = 0; i < n; i++) {
            if (scratch[i] == '\n' && i >= 3 && scratch[i - 2] == '\n') {
                return i + 1;
            }
        }
        throw new IllegalStateException("no whole head in the first read");
    }

    private String authority() {
        return "127.0.0.1:18099";
    }

    // The chain does what a proxied request does: the backend gets the head and body the router
    // writes, the client gets the backend's answer, and the connections are ready for another.
    private void check() throws IOException {
        if (!wholeRequest() || !wholeRequest()) {
            throw new IllegalStateException("the backend connection would not be kept");
        }
        String sent = new String(backend.sentBytes(), StandardCharsets.ISO_8859_1);
        String answered = new String(client.written(), StandardCharsets.ISO_8859_1);
        if (!sent.startsWith("POST /v1/responses HTTP/1.1\r\nHost: 127.0.0.1:18099\r\n")
                || !sent.contains("\r\nX-Forwarded-For: 127.0.0.1\r\n")
                || !sent.endsWith("\r\n\r\n" + new String(SessionsTraffic.BODY, StandardCharsets.ISO_8859_1))
                || !answered.startsWith("HTTP/1.1 200 OK\r\n") || !answered.contains("\r\nServer: nginx/1.22.1\r\n")
                || !answered.endsWith("\r\n\r\nbackend-1\n") || clientRequests.available() != 0) {
            throw new IllegalStateException("the chain did not proxy the request:\n" + sent + "\n---\n" + answered);
        }
    }
}
