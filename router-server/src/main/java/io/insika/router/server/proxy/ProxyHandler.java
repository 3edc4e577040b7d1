package io.insika.router.server.proxy;

import java.lang.System.Logger.Level;
import java.net.SocketAddress;
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
import io.insika.router.server.metrics.BackendError;
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
    private final BackendForwarder forwarder;
    private final ClientStallWatchdog clientWatchdog;
    private final Semaphore requestSlots;
    private final LongAdder overloadRefusals = new LongAdder();
    private final LongAdder redispatches = new LongAdder();
    private final PeekBudget peekBudget;
    private final OpenLimit tunnels;
    private final Redirector redirector;
    private final PluginFailureLog pluginFailures = new PluginFailureLog();
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
        this.forwarder = new BackendForwarder(clientWatchdog);
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
                settings.sessions(), pluginFailures), client, metrics, accessLog(settings), tunnels);
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
        proxy(ClientRequest.of(request), new HelidonAnswer(response));
    }

    /** Proxies one request: the part of {@link #handle} that does not care who framed it. */
    void proxy(ClientRequest request, ClientAnswer response) {
        long started = System.nanoTime();
        ProxyParts live = parts;
        AccessLog accessLog = live.accessLog();
        SocketAddress client = accessLog == null ? null : request.peer();
        metrics.requestStarted();
        Placed placed = null;
        SlotHold hold = SlotHold.NONE;
        String error = null;
        BodyPeek body = null;
        boolean slot = requestSlots.tryAcquire();
        try {
            body = request.body() != null
                    ? new BodyPeek(clientWatchdog.watch(request.body()), live.settings().bodyMaxBytes(),
                            request.headers().contentLength().orElse(-1), peekBudget)
                    : null;
            Optional<ProxyFailure> failure;
            if (!slot) {
                failure = Optional.of(ProxyFailure.OVERLOADED); // at once: nothing read, no backend asked
            } else if (!ClientHeadCheck.forwardable(request.prologue(), request.headers())) {
                failure = Optional.of(ProxyFailure.BAD_REQUEST);
            } else {
                placed = live.placer().place(request.prologue(), request.headers(), body);
                hold = SlotHold.of(placed.slot());
                failure = placed.refusal() != null ? Optional.of(placed.refusal()) : clientBodyFailure(body, placed);
                Optional<URI> redirect = failure.isEmpty() ? redirector.target(placed, request.headers())
                        : Optional.empty();
                if (redirect.isPresent()) {
                    redirector.send(response, placed, redirect.get(), request.headers(),
                            body != null && !body.fullyRead());
                } else if (failure.isEmpty()) {
                    failure = forward(live, request, response, placed, hold, body);
                    if (redispatchable(failure, placed, body)) {
                        Attempt last = redispatch(live, request, response, placed, hold, body);
                        placed = last.placed();
                        hold = last.hold();
                        failure = last.failure();
                    }
                }
            }
            if (failure.isPresent()) {
                if (failure.get() == ProxyFailure.OVERLOADED) {
                    overloadRefusals.increment();
                }
                error = failure.get().label();
                // a refused request ends its connection: whatever its client sends next is suspect
                failure.get().send(response, failure.get() == ProxyFailure.BAD_REQUEST
                        || (body != null && !body.fullyRead()),
                        placed != null && placed.refusal() == failure.get() ? placed.refusalStatus()
                                : failure.get().status().code());
            }
        } catch (BackendBrokeException e) {
            error = BackendError.BROKEN.label();
            throw e;
        } catch (ClientLeftException e) {
            error = e.timedOut() ? "client-timeout" : "client-left";
            throw e;
        } catch (CloseConnectionException e) {
            throw e; // the answer is out (or cannot be sent); the connection must not carry another request
        } catch (RuntimeException e) {
            error = "internal";
            throw e;
        } finally {
            if (body != null) {
                body.releaseBudget();
            }
            if (slot) {
                requestSlots.release();
            }
            hold.run(); // unless the answer's end already gave the slot back
            metrics.requestEnded();
            if (accessLog != null) {
                accessLog.log(client, request, response, placed, error, started);
            }
        }
    }

    /** Where a request was sent last, and how that ended. */
    private record Attempt(Placed placed, SlotHold hold, Optional<ProxyFailure> failure) {
    }

    // Unreachable and nothing sent: a request without a key may try the next backends, each
    // once. A session never does: its state is on its owner. Gives back each failed slot.
    private Attempt redispatch(ProxyParts live, ClientRequest request, ClientAnswer response, Placed failed,
                               SlotHold failedHold, BodyPeek body) {
        Attempt last = new Attempt(failed, failedHold, Optional.of(ProxyFailure.UNAVAILABLE));
        for (int hop = 1; hop < live.placer().backendCount() && redispatchable(last.failure(), last.placed(), body);
             hop++) {
            Placed next = live.placer().redispatch(last.placed());
            last.hold().run();
            redispatches.increment();
            SlotHold hold = SlotHold.of(next.slot());
            last = new Attempt(next, hold, next.refusal() != null ? Optional.of(next.refusal())
                    : forward(live, request, response, next, hold, body));
        }
        return last;
    }

    private static boolean redispatchable(Optional<ProxyFailure> failure, Placed placed, BodyPeek body) {
        return failure.isPresent() && failure.get() == ProxyFailure.UNAVAILABLE && placed.how() != Placement.KEY
                && placed.slot() != null && (body == null || body.replayable());
    }

    // A body the key peek could not read: a client that left gets no answer, a body whose
    // framing Helidon's reader refused gets 400, a key search cut short for want of peek budget
    // gets the retry envelope (placed without its key, the session would scatter); all before
    // any backend saw a byte of it.
    private static Optional<ProxyFailure> clientBodyFailure(BodyPeek body, Placed placed) {
        if (body == null) {
            return Optional.empty();
        }
        if (body.overBudget() && placed.how() != Placement.KEY) {
            return Optional.of(ProxyFailure.OVERLOADED);
        }
        try {
            body.requireClient();
            return Optional.empty();
        } catch (ClientGoneException e) {
            if (e.malformed()) {
                return Optional.of(ProxyFailure.BAD_REQUEST);
            }
            throw new ClientLeftException("client went away while its body was read for the key", e);
        }
    }

    /** @return the failure to answer with, or empty when the backend's answer was relayed */
    private Optional<ProxyFailure> forward(ProxyParts live, ClientRequest request, ClientAnswer response,
                                           Placed placed, SlotHold hold, BodyPeek body) {
        if (placed.backend() == null) {
            LOGGER.log(Level.DEBUG, "no backends: {0} {1} answered 503", request.prologue().method().text(),
                    request.prologue().uriPath().rawPath());
            metrics.noBackend();
            return Optional.of(ProxyFailure.NO_BACKEND);
        }
        Backend owner = placed.backend();
        Optional<ProxyFailure> failure = forwarder.forward(live, request, response, owner, placed.slot(), body,
                placed.carrier(), hold);
        failure.ifPresent(it -> LOGGER.log(Level.WARNING, "backend {0}: {1} for {2} {3}", owner.id(), it,
                request.prologue().method().text(), request.prologue().uriPath().rawPath()));
        return failure;
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
