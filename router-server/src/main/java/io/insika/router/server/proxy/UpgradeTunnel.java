package io.insika.router.server.proxy;

import java.io.IOException;
import java.util.function.Supplier;

import io.helidon.http.HttpPrologue;
import io.helidon.http.ServerRequestHeaders;
import io.helidon.http.WritableHeaders;
import io.helidon.webserver.ConnectionContext;
import io.helidon.webserver.http1.spi.Http1Upgrader;
import io.helidon.webserver.spi.ServerConnection;
import io.insika.router.server.backends.BackendState;
import io.insika.router.server.metrics.BackendError;
import io.insika.router.server.metrics.BackendMeters;
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
 *
 * <p>An upgrade is a {@link ProxyCall} like any request: its refusals, the router's answers and
 * the owner's own answers go through the same {@link Outcome}s, {@link ResponseRelay} and
 * {@link LeanAnswer} as the lean connection's, with the connection closing after them.
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
        ProxyParts parts = current.get();
        ServerRequestHeaders requestHeaders = ServerRequestHeaders.create(headers);
        // the peer taken now: a closed socket forgets it, and a tunnel is logged when it closes
        ClientRequest request = new ClientRequest(prologue, requestHeaders, ctx.remotePeer().address(), ctx.isSecure(),
                null); // Helidon only offers upgrades without a body
        // every answer on it closes the connection, which has left Helidon's HTTP/1
        LeanAnswer answer = new LeanAnswer(ctx.dataWriter(), new LeanAnswer.Scratch(), true, false);
        ProxyCall call = parts.call(request, answer);
        if (!ClientHeadCheck.forwardable(call.target(), requestHeaders)) {
            return null; // the proxy refuses it with 400
        }
        Placed placed = call.placeTunnel();
        if (placed instanceof Placed.Refused refused) {
            return answered(call, refused.reason());
        }
        if (!(placed instanceof Placed.Admitted admitted)) {
            return null; // no backends: the proxy answers with the envelope
        }
        BackendState state = admitted.slot();
        if (!parts.tunnels().tryTake()) {
            // as many tunnels as the heap holds: the retry envelope, before any backend hears of it
            state.endTunnel();
            return answered(call, Outcome.OVERLOADED);
        }
        Exchange backend;
        try {
            backend = parts.connect(admitted.backend(), state);
        } catch (IOException | RuntimeException e) {
            LOGGER.log(System.Logger.Level.DEBUG, "cannot connect to " + admitted.backend().id() + " for an upgrade", e);
            state.endTunnel();
            parts.tunnels().give();
            return null; // nothing sent: the proxy places it again, and finds the owner down
        }
        call.count();
        try {
            if (relay(call, admitted, backend, answer)) {
                return new TunnelConnection(ctx, backend, parts.metrics(), bytes -> {
                    state.endTunnel();
                    parts.tunnels().give();
                    call.tunnelled(bytes);
                    call.end();
                });
            }
        } catch (IOException | RuntimeException e) {
            LOGGER.log(System.Logger.Level.DEBUG, "upgrade through " + admitted.backend().id() + " failed", e);
            failed(call, admitted, backend, e);
        }
        backend.discard();
        state.endTunnel();
        parts.tunnels().give();
        call.end();
        return new TunnelConnection.Closed(); // the answer is out; Helidon closes the connection
    }

    // Sends the upgrade to the owner and relays its answer: whether it was a 101, the client's
    // connection then a tunnel to it; any other answer is relayed as the proxy relays answers,
    // and then the connection closes.
    private static boolean relay(ProxyCall call, Placed.Admitted admitted, Exchange backend,
                                          LeanAnswer answer) throws IOException {
        ProxyParts parts = call.parts();
        long sending = System.nanoTime();
        RequestWriter writer = backend.request();
        writer.requestLine(call.request().prologue().method().text(), call.target().originForm());
        ForwardedHeaders.copy(call, HopByHopHeaders.ofUpgrade(call.request().headers()), writer);
        writer.endHead(RequestWriter.NO_BODY);
        writer.finish();
        ResponseHead head = backend.readHead();
        long headNanos = System.nanoTime() - sending;
        BackendMeters meters = parts.metrics().backend(admitted.backend());
        meters.answered(head.status(), headNanos);
        call.backendAnswered(meters, headNanos);
        admitted.slot().answered();
        if (head.status() == 101) {
            ResponseRelay.switchProtocols(call, head);
            answer.sendSwitch();
            backend.becomeTunnel();
            return true;
        }
        ResponseRelay.relay(call, head, backend.body(head, ResponseBody.bodiless(head.status())));
        return false;
    }

    // Before anything of the owner's answer reached the client, a failure is answered; after, it
    // can only cut the connection.
    private static void failed(ProxyCall call, Placed.Admitted admitted, Exchange backend, Exception e) {
        switch (e) {
            case BackendBrokeException broke -> {
                call.parts().failed(admitted.backend(), admitted.slot(), BackendError.BROKEN, broke.getCause());
                call.ended(Outcome.BROKEN);
            }
            case ClientLeftException left -> call.ended(left.timedOut() ? Outcome.CLIENT_TIMEOUT : Outcome.CLIENT_LEFT);
            default -> {
                Outcome failure = BackendForwarder.classify(true, backend, e);
                call.parts().failed(admitted.backend(), admitted.slot(), failure.error(), e);
                answer(call, failure);
            }
        }
    }

    // The router's own answer in the backend's place, counted as a placement; the connection
    // closes after it.
    private static ServerConnection answered(ProxyCall call, Outcome outcome) {
        call.count();
        answer(call, outcome);
        call.end();
        return new TunnelConnection.Closed();
    }

    private static void answer(ProxyCall call, Outcome outcome) {
        try {
            call.answer(outcome);
        } catch (RuntimeException e) {
            LOGGER.log(System.Logger.Level.DEBUG, "the client of an upgrade left before its answer", e);
            call.ended(Outcome.CLIENT_LEFT);
        }
    }
}
