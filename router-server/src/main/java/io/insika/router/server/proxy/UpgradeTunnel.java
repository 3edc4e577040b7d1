package io.insika.router.server.proxy;

import java.io.IOException;
import java.net.SocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.HashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.function.Supplier;
import java.util.OptionalLong;

import io.helidon.common.buffers.BufferData;
import io.helidon.http.Header;
import io.helidon.http.HttpPrologue;
import io.helidon.http.ServerRequestHeaders;
import io.helidon.http.Status;
import io.helidon.http.WritableHeaders;
import io.helidon.webserver.ConnectionContext;
import io.helidon.webserver.http1.spi.Http1Upgrader;
import io.helidon.webserver.spi.ServerConnection;
import io.insika.router.api.Backend;
import io.insika.router.server.backends.BackendState;
import io.insika.router.server.metrics.BackendError;
import io.insika.router.server.upstream.Exchange;
import io.insika.router.server.upstream.RequestWriter;
import io.insika.router.server.upstream.ResponseBody;
import io.insika.router.server.upstream.ResponseHead;

/**
 * Carries a WebSocket upgrade to the request's owner and, once the owner agrees (101), joins the
 * two connections byte for byte until either side closes: what Socket.IO needs after its polling
 * phase, with the same key (its {@code stickyId} query parameter, say) and so the same owner.
 *
 * <p>The router never speaks WebSocket itself; frames pass untouched. Placement follows the
 * same routes as every other request (no body is read: an upgrade request has none), and takes
 * a tunnel slot of its backend for as long as it stays open. An owner that is down or has no
 * tunnel slot left is answered with the retry envelope, and the connection closes. An owner
 * that cannot be reached gets the proxy's usual answer: the upgrader declines, Helidon routes
 * the request normally and the proxy answers 503 with the retry envelope. An owner that
 * refuses the upgrade has its answer relayed, and the connection closes.
 */
final class UpgradeTunnel implements Http1Upgrader {

    private static final System.Logger LOGGER = System.getLogger(UpgradeTunnel.class.getName());

    private final Supplier<ProxyParts> current;
    private final String spelling;

    /**
     * @param current  the proxy's parts now: read once per upgrade, so a tunnel keeps the
     *                 configuration it was opened with across a reload
     * @param spelling the {@code Upgrade} token this upgrader is registered for
     */
    UpgradeTunnel(Supplier<ProxyParts> current, String spelling) {
        this.current = current;
        this.spelling = spelling;
    }

    @Override
    public String supportedProtocol() {
        return spelling;
    }

    @Override
    public ServerConnection upgrade(ConnectionContext ctx, HttpPrologue prologue, WritableHeaders<?> headers) {
        long started = System.nanoTime();
        ProxyParts parts = current.get();
        // taken now: a closed socket forgets its peer, and a tunnel is logged when it closes
        SocketAddress client = parts.accessLog() == null ? null : ctx.remotePeer().address();
        ServerRequestHeaders requestHeaders = ServerRequestHeaders.create(headers);
        if (!ClientHeadCheck.forwardable(prologue, requestHeaders)) {
            return null; // the proxy refuses it with 400
        }
        // counted only once the tunnel takes it: a declined upgrade is placed again by the proxy
        Placed placed = parts.placer().locate(prologue, requestHeaders, null, Placer.Slot.TUNNEL);
        if (placed.refusal() != null) {
            parts.placer().count(placed);
            byte[] answer = placed.refusal().closingAnswer(placed.refusalStatus());
            writeNow(ctx, answer);
            log(parts, client, prologue, requestHeaders, placed.refusalStatus(), answer.length, placed,
                    placed.refusal().label(), started);
            return new TunnelConnection.Closed();
        }
        Optional<Backend> owner = placed.owner();
        if (owner.isEmpty()) {
            return null; // no backends: the proxy answers with the envelope
        }
        BackendState state = placed.slot();
        if (!parts.tunnels().tryTake()) {
            // as many tunnels as the heap holds: the retry envelope, before any backend hears of it
            state.endTunnel();
            parts.placer().count(placed);
            byte[] answer = ProxyFailure.OVERLOADED.closingAnswer();
            writeNow(ctx, answer);
            log(parts, client, prologue, requestHeaders, ProxyFailure.OVERLOADED.status().code(), answer.length, placed,
                    ProxyFailure.OVERLOADED.label(), started);
            return new TunnelConnection.Closed();
        }
        Exchange backend;
        try {
            backend = parts.connect(owner.get(), state);
        } catch (IOException | RuntimeException e) {
            LOGGER.log(System.Logger.Level.DEBUG, "cannot connect to " + owner.get().id() + " for an upgrade", e);
            state.endTunnel();
            parts.tunnels().give();
            return null; // nothing sent: the proxy places it again, and finds the owner down
        }
        parts.placer().count(placed);
        boolean refusalStarted = false;
        int refusalStatus = 0;
        try {
            long sending = System.nanoTime();
            RequestWriter writer = backend.request();
            writer.requestLine(prologue.method().text(), RequestTarget.originForm(prologue));
            ForwardedHeaders.copy(prologue, requestHeaders, ctx.remotePeer().address(), ctx.isSecure(),
                    HopByHopHeaders.ofUpgrade(requestHeaders), parts.trustedProxies(), placed.carrier(), writer);
            writer.endHead(RequestWriter.NO_BODY); // Helidon only offers upgrades without a body
            writer.finish();
            ResponseHead head = backend.readHead();
            parts.metrics().backend(owner.get()).answered(head.status(), System.nanoTime() - sending);
            state.answered();
            if (head.status() == 101) {
                writeSwitch(ctx, head, placed.carrier(), owner.get().id());
                backend.becomeTunnel();
                return new TunnelConnection(ctx, backend, parts.metrics(), bytes -> {
                    state.endTunnel();
                    parts.tunnels().give();
                    log(parts, client, prologue, requestHeaders, 101, bytes, placed, null, started);
                });
            }
            ResponseBody body = backend.body(head, ResponseBody.bodiless(head.status()));
            byte[] refusalHead = refusalHead(head, body, placed.carrier(), owner.get().id()); // may refuse to seal
            refusalStatus = head.status();
            refusalStarted = true;
            long bytes = relayRefusal(ctx, refusalHead, body);
            log(parts, client, prologue, requestHeaders, head.status(), bytes, placed, null, started);
        } catch (IOException | RuntimeException e) {
            LOGGER.log(System.Logger.Level.DEBUG, "upgrade through " + owner.get().id() + " failed", e);
            // Once the refusal's head is out, a failure can only cut the connection; before, it is answered
            if (!refusalStarted) {
                ProxyFailure failure = backend.timedOut() ? ProxyFailure.BACKEND_TIMEOUT : ProxyFailure.BACKEND_FAILED;
                parts.failed(owner.get(), state, failure.error(), e);
                answer(parts, ctx, failure, client, prologue, requestHeaders, placed, started);
            } else {
                parts.failed(owner.get(), state, BackendError.BROKEN, e);
                log(parts, client, prologue, requestHeaders, refusalStatus, 0, placed, BackendError.BROKEN.label(),
                        started);
            }
        }
        backend.discard();
        state.endTunnel();
        parts.tunnels().give();
        return new TunnelConnection.Closed(); // the answer is out; Helidon closes the connection
    }

    // The router's own answer in the backend's place; the connection closes after it.
    private static void answer(ProxyParts parts, ConnectionContext ctx, ProxyFailure failure, SocketAddress client,
                               HttpPrologue prologue, ServerRequestHeaders headers, Placed placed, long started) {
        byte[] answer = failure.closingAnswer();
        writeNow(ctx, answer);
        log(parts, client, prologue, headers, failure.status().code(), answer.length, placed, failure.label(), started);
    }

    private static void log(ProxyParts parts, SocketAddress client, HttpPrologue prologue,
                            ServerRequestHeaders headers, int status, long bytes, Placed placed, String error,
                            long started) {
        AccessLog accessLog = parts.accessLog();
        if (accessLog != null) {
            accessLog.log(client, prologue.method().text(), RequestTarget.path(prologue),
                    headers.first(AccessLog.REQUEST_ID).orElse(null), status, bytes, placed, error, started);
        }
    }

    // The owner answered the upgrade with an ordinary response: relay it with the framing the
    // router reads it by (its length, or the close), then the connection closes. Returns the body
    // bytes relayed.
    // The refusal's head, with the session carrier sealed; built before anything is written, so a
    // value that cannot be sealed is still answered 502.
    private static byte[] refusalHead(ResponseHead head, ResponseBody body, SessionCarrier carrier, String backendId)
            throws SessionCarrier.Unsealable {
        OptionalLong length = body.declaredLength();
        StringBuilder text = new StringBuilder(256).append("HTTP/1.1 ").append(head.status()).append(' ')
                .append(Status.create(head.status()).reasonPhrase()).append("\r\n");
        fieldLines(text, head, HopByHopHeaders.of(head.headers()), List.of("content-length", "transfer-encoding"),
                carrier, backendId);
        if (length.isPresent() && !ResponseBody.bodiless(head.status())) {
            text.append("Content-Length: ").append(length.getAsLong()).append("\r\n");
        }
        return text.append("Connection: close\r\n\r\n").toString().getBytes(StandardCharsets.ISO_8859_1);
    }

    private static long relayRefusal(ConnectionContext ctx, byte[] refusalHead, ResponseBody body) throws IOException {
        writeNow(ctx, refusalHead);
        byte[] chunk = new byte[8192];
        long relayed = 0;
        for (int n = body.read(chunk); n >= 0; n = body.read(chunk)) {
            writeNow(ctx, Arrays.copyOf(chunk, n));
            relayed += n;
        }
        return relayed;
    }

    // The owner's 101 with its Connection and Upgrade, which the client needs to agree too
    private static void writeSwitch(ConnectionContext ctx, ResponseHead head, SessionCarrier carrier, String backendId)
            throws SessionCarrier.Unsealable {
        StringBuilder text = new StringBuilder(256).append("HTTP/1.1 101 Switching Protocols\r\n");
        fieldLines(text, head, HopByHopHeaders.ofUpgrade(head.headers()), List.of("content-length"), carrier,
                backendId);
        writeNow(ctx, text.append("\r\n").toString().getBytes(StandardCharsets.ISO_8859_1));
    }

    // The backend's field lines as the client gets them, one per line received: hop-by-hop ones
    // and those named in left out, and each learned carrier's values sealed with the answering
    // backend's id, as ResponseRelay seals them (all of a name written where its first was).
    private static void fieldLines(StringBuilder text, ResponseHead head, HopByHopHeaders hopByHop, List<String> left,
                                   SessionCarrier carrier, String backendId) throws SessionCarrier.Unsealable {
        Set<String> carried = new HashSet<>(2);
        for (Header header : head.headers()) {
            String name = header.headerName().lowerCase();
            if (hopByHop.excludes(header) || left.contains(name) || carried.contains(name)) {
                continue;
            }
            if (carrier.seals(name)) {
                carried.add(name);
                for (String value : carrier.sealAnswer(head.headers(), name, backendId)) {
                    text.append(header.headerName().defaultCase()).append(": ").append(value).append("\r\n");
                }
                continue;
            }
            text.append(header.headerName().defaultCase()).append(": ").append(header.get()).append("\r\n");
        }
    }

    static void writeNow(ConnectionContext ctx, byte[] bytes) {
        ctx.dataWriter().writeNow(BufferData.create(bytes));
    }
}
