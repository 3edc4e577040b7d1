package io.insika.router.server.proxy;

import java.lang.System.Logger.Level;
import java.net.URI;
import java.util.Optional;
import java.util.concurrent.Semaphore;
import java.util.concurrent.atomic.LongAdder;
import java.util.stream.Collectors;

import io.helidon.webserver.CloseConnectionException;
import io.helidon.webserver.http.Handler;
import io.helidon.webserver.http.ServerRequest;
import io.helidon.webserver.http.ServerResponse;
import io.insika.router.api.Backend;
import io.insika.router.server.backends.BackendStates;
import io.insika.router.server.metrics.Placement;
import io.insika.router.server.metrics.RouterMetrics;
import io.insika.router.server.plugin.PluginFailureLog;
import io.insika.router.server.routing.BackendPool;
import io.insika.router.server.routing.RouteTable;
import io.insika.router.server.upstream.BackendClient;

/**
 * The proxy: finds the request's session key, picks its owner from the current snapshot and
 * forwards the request there, and only there. Runs on the request's virtual thread.
 */
public final class ProxyHandler implements Handler, AutoCloseable {

    private static final System.Logger LOGGER = System.getLogger(ProxyHandler.class.getName());

    private final BackendPool pool;
    private final BackendStates states;
    private final RouterMetrics metrics;
    private final BackendClient client;
    private final ClientStallWatchdog clientWatchdog;
    private final Semaphore requestSlots;
    private final LongAdder overloadRefusals = new LongAdder();
    private final LongAdder redispatches = new LongAdder();
    private final PeekBudget peekBudget;
    private final OpenLimit tunnels;
    private final Redirector redirector;
    private final PluginFailureLog pluginFailures = new PluginFailureLog();
    private final BeyondCapLog beyondCap = new BeyondCapLog();
    // made the first time a configuration turns it on, and kept until close: a request still
    // logging after a reload turned it off must find it open
    private AccessLog accessLog; // guarded by this
    // the configuration requests begin with now; each reads it once and keeps it to its end
    private volatile ProxyParts parts;

    /**
     * @param routes   the keyed routes
     * @param pool     the backends, updated by discovery
     * @param states   each backend's slots and health, shared with the admin endpoints
     * @param settings the proxy's configuration
     * @param metrics  where it counts
     */
    public ProxyHandler(RouteTable routes, BackendPool pool, BackendStates states, ProxySettings settings,
                        RouterMetrics metrics) {
        this.pool = pool;
        this.states = states;
        this.metrics = metrics;
        this.clientWatchdog = new ClientStallWatchdog(settings.clientBodyTimeout(), settings.clientSendTimeout(),
                settings.clientBodyMinRate());
        metrics.counter("client_body_timeouts", "Requests cut because their client paused too long mid-body",
                clientWatchdog::bodyTimeouts);
        metrics.counter("client_send_timeouts", "Answers cut because their client stopped reading",
                clientWatchdog::sendTimeouts);
        this.client = new BackendClient(settings.backendTimeout(), () -> pool.snapshot().backends().stream()
                .map(Backend::id).collect(Collectors.toUnmodifiableSet()));
        client.streamIdleTimeout(settings.streamIdleTimeout());
        metrics.gauge("backend_connections", "Connections open to backends, busy, idle or tunnelling",
                client::openCount);
        this.requestSlots = new Semaphore(settings.maxRequests());
        this.tunnels = OpenLimit.tunnels(settings.maxTunnels());
        metrics.gauge("tunnels", "WebSocket tunnels open through the router", tunnels::open);
        metrics.gauge("tunnels_limit", "proxy.max-tunnels, or what the heap allows", tunnels::limit);
        metrics.counter("tunnel_refusals", "Upgrades answered with the retry envelope: proxy.max-tunnels were open",
                tunnels::refused);
        this.peekBudget = new PeekBudget(settings.peekBudget());
        this.redirector = new Redirector(metrics);
        metrics.counter("overload_refusals", "Requests answered with the retry envelope because the router was full:"
                + " max-requests in flight, or no peek budget left", overloadRefusals::sum);
        metrics.counter("redispatches", "Requests without a key sent to another backend after theirs could not be"
                + " reached (nothing had been sent to it)", redispatches::sum);
        metrics.gauge("peek_budget_bytes_in_use", "Bytes of key-peek buffer held beyond each request's free 8 KiB",
                peekBudget::inUse);
        this.parts = parts(routes, settings);
    }

    /**
     * Applies a reloaded configuration: requests and tunnels begun from now on use these routes
     * and settings; those in flight finish with the ones they began with. The request limit and
     * the peek budget are fixed at start.
     *
     * @param routes   the new routes
     * @param settings the new settings
     */
    public void reconfigure(RouteTable routes, ProxySettings settings) {
        metrics.routes(routes.routes());
        states.capacity(settings.capacity());
        client.timeout(settings.backendTimeout());
        client.streamIdleTimeout(settings.streamIdleTimeout());
        clientWatchdog.timeouts(settings.clientBodyTimeout(), settings.clientSendTimeout(), settings.clientBodyMinRate());
        parts = parts(routes, settings);
    }

    private ProxyParts parts(RouteTable routes, ProxySettings settings) {
        return new ProxyParts(settings, new Placer(routes, pool, states, metrics, settings.bodyMaxBytes(),
                settings.sessions(), pluginFailures, beyondCap), client, metrics, accessLog(settings), tunnels, clientWatchdog,
                peekBudget);
    }

    private synchronized AccessLog accessLog(ProxySettings settings) {
        if (settings.accessLog().isEmpty()) {
            return null;
        }
        if (accessLog == null) {
            AccessLog log = AccessLog.to(settings.accessLog().get());
            metrics.counter("access_log_dropped", "Access log lines dropped: the writer fell behind or its stream failed",
                    log::dropped);
            accessLog = log;
        }
        return accessLog;
    }

    @Override
    public void handle(ServerRequest request, ServerResponse response) {
        ClientRequest client = ClientRequest.of(request);
        proxy(client, new HelidonAnswer(response, client.http2()), false);
    }

    /**
     * Proxies one request: the part of {@link #handle} that does not care who framed it.
     *
     * @param strictHead whether its head came through {@link LeanHead}, whose subset holds every
     *                   rule of {@link ClientHeadCheck} already: such a head is not scanned twice
     *                   (LeanHeadFuzzTest keeps the two in step)
     */
    void proxy(ClientRequest request, ClientAnswer response, boolean strictHead) {
        ProxyCall call = parts.call(request, response);
        metrics.requestStarted();
        boolean slot = requestSlots.tryAcquire();
        try {
            call.openBody();
            Outcome outcome = !slot ? Outcome.OVERLOADED // at once: nothing read, no backend asked
                    : !strictHead && !ClientHeadCheck.forwardable(call.target(), request.headers())
                    ? Outcome.BAD_REQUEST
                    : placeAndForward(call);
            if (outcome == Outcome.OVERLOADED) {
                overloadRefusals.increment();
            }
            if (outcome.answers()) {
                call.answer(outcome); // closing the connection when its head or its unread body is suspect
            } else {
                call.ended(outcome);
            }
        } catch (BackendBrokeException e) {
            call.ended(Outcome.BROKEN);
            throw e;
        } catch (ClientLeftException e) {
            call.ended(e.timedOut() ? Outcome.CLIENT_TIMEOUT : Outcome.CLIENT_LEFT);
            throw e;
        } catch (CloseConnectionException e) {
            throw e; // the answer is out (or cannot be sent); the connection must not carry another request
        } catch (RuntimeException e) {
            call.ended(Outcome.INTERNAL);
            throw e;
        } finally {
            if (slot) {
                requestSlots.release();
            }
            call.end();
            metrics.requestEnded();
        }
    }

    private Outcome placeAndForward(ProxyCall call) {
        Placed placed = call.place();
        if (placed instanceof Placed.Refused refused) {
            return refused.reason();
        }
        Optional<Outcome> unreadable = clientBodyFailure(call.body(), placed.lookup());
        if (unreadable.isPresent()) {
            return unreadable.get();
        }
        if (placed instanceof Placed.Admitted admitted) {
            Optional<URI> redirect = redirector.target(admitted, call.request().headers());
            if (redirect.isPresent()) {
                call.ended(Outcome.REDIRECTED);
                redirector.send(call, admitted, redirect.get());
                return Outcome.REDIRECTED;
            }
        }
        Outcome outcome = attempt(call, placed);
        // Unreachable and nothing sent: a request without a key may try the next backends, each
        // once. A session never does: its state is on its owner. Gives back each failed slot.
        for (int hop = 1; hop < call.parts().placer().backendCount() && redispatchable(outcome, call); hop++) {
            Placed next = call.redispatch((Placed.Admitted) call.placed());
            redispatches.increment();
            outcome = attempt(call, next);
        }
        return outcome;
    }

    private static boolean redispatchable(Outcome outcome, ProxyCall call) {
        return outcome == Outcome.UNAVAILABLE && call.placed() instanceof Placed.Admitted admitted
                && admitted.lookup().how() != Placement.KEY && (call.body() == null || call.body().replayable());
    }

    // A body the key peek could not read: a client that left gets no answer, a body whose
    // framing Helidon's reader refused gets 400, a key search cut short for want of peek budget
    // gets the retry envelope (placed without its key, the session would scatter); all before
    // any backend saw a byte of it.
    private static Optional<Outcome> clientBodyFailure(BodyPeek body, KeyLookup lookup) {
        if (body == null) {
            return Optional.empty();
        }
        if (body.overBudget() && lookup.how() != Placement.KEY) {
            return Optional.of(Outcome.OVERLOADED);
        }
        try {
            body.requireClient();
            return Optional.empty();
        } catch (ClientGoneException e) {
            if (e.malformed()) {
                return Optional.of(Outcome.BAD_REQUEST);
            }
            throw new ClientLeftException("client went away while its body was read for the key", e);
        }
    }

    /** Sends the request where it was placed: how that ended ({@link Outcome#RELAYED} when the answer was). */
    private Outcome attempt(ProxyCall call, Placed placed) {
        return switch (placed) {
            case Placed.Refused refused -> refused.reason();
            case Placed.NoBackend none -> {
                LOGGER.log(Level.DEBUG, "no backends: {0} {1} answered 503", call.request().prologue().method().text(),
                        call.request().prologue().uriPath().rawPath());
                metrics.noBackend();
                yield Outcome.NO_BACKEND;
            }
            case Placed.Admitted admitted -> {
                Outcome outcome = BackendForwarder.forward(call, admitted);
                if (outcome != Outcome.RELAYED) {
                    LOGGER.log(Level.WARNING, "backend {0}: {1} for {2} {3}", admitted.backend().id(), outcome,
                            call.request().prologue().method().text(), call.request().prologue().uriPath().rawPath());
                }
                yield outcome;
            }
        };
    }

    @Override
    public void close() {
        client.close();
        clientWatchdog.close();
        synchronized (this) {
            if (accessLog != null) {
                accessLog.close();
            }
        }
    }

    /** What the WebSocket tunnel shares with this proxy now. */
    ProxyParts parts() {
        return parts;
    }
}
