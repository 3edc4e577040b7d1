package io.insika.router.server.proxy;

import java.lang.System.Logger.Level;
import java.net.SocketAddress;
import java.util.Map;
import java.util.Optional;
import java.util.stream.Collectors;

import io.helidon.http.HttpPrologue;
import io.helidon.http.ServerRequestHeaders;
import io.helidon.webserver.CloseConnectionException;
import io.helidon.webserver.http.Handler;
import io.helidon.webserver.http.ServerRequest;
import io.helidon.webserver.http.ServerResponse;
import io.insika.router.api.Backend;
import io.insika.router.api.KeyExtractor;
import io.insika.router.server.metrics.BackendError;
import io.insika.router.server.metrics.Placement;
import io.insika.router.server.metrics.RouterMetrics;
import io.insika.router.server.routing.BackendPool;
import io.insika.router.server.routing.Route;
import io.insika.router.server.routing.RouteMatch;
import io.insika.router.server.routing.RouteTable;
import io.insika.router.server.routing.RoutingSnapshot;

/**
 * The proxy: finds the request's session key, picks its owner from the current snapshot and
 * forwards the request there, and only there. Runs on the request's virtual thread.
 */
public final class ProxyHandler implements Handler, AutoCloseable {

    private static final System.Logger LOGGER = System.getLogger(ProxyHandler.class.getName());

    private final RouteTable routes;
    private final BackendPool pool;
    private final ProxySettings settings;
    private final BackendForwarder forwarder;
    private final RouterMetrics metrics;
    private final AccessLog accessLog;
    private final ClientStallWatchdog clientWatchdog;

    public ProxyHandler(RouteTable routes, BackendPool pool, ProxySettings settings, RouterMetrics metrics) {
        this.routes = routes;
        this.pool = pool;
        this.settings = settings;
        this.metrics = metrics;
        this.accessLog = AccessLog.to(settings.accessLog().orElse(null));
        this.clientWatchdog = new ClientStallWatchdog(settings.clientBodyTimeout(), settings.clientSendTimeout());
        metrics.counter("client_body_timeouts", "Requests cut because their client paused too long mid-body",
                clientWatchdog::bodyTimeouts);
        metrics.counter("client_send_timeouts", "Answers cut because their client stopped reading",
                clientWatchdog::sendTimeouts);
        this.forwarder = new BackendForwarder(settings, () -> pool.snapshot().backends().stream()
                .map(Backend::id).collect(Collectors.toUnmodifiableSet()), metrics, clientWatchdog);
        metrics.gauge("backend_connections", "Connections open to backends, busy, idle or tunnelling",
                forwarder.connections()::openCount);
        if (accessLog != null) {
            metrics.counter("access_log_dropped", "Access log lines dropped: the writer fell behind or its stream failed",
                    accessLog::dropped);
        }
    }

    @Override
    public void handle(ServerRequest request, ServerResponse response) {
        long started = System.nanoTime();
        SocketAddress client = accessLog == null ? null : request.remotePeer().address();
        metrics.requestStarted();
        Placed placed = null;
        String error = null;
        BodyPeek body = null;
        try {
            body = request.content().hasEntity()
                    ? new BodyPeek(clientWatchdog.watch(request.content().inputStream()), settings.bodyMaxBytes(),
                            request.headers().contentLength().orElse(-1))
                    : null;
            Optional<ProxyFailure> failure;
            if (!ClientHeadCheck.forwardable(request.prologue(), request.headers())) {
                failure = Optional.of(ProxyFailure.BAD_REQUEST);
            } else {
                placed = place(request.prologue(), request.headers(), pool.snapshot(), body);
                failure = clientBodyFailure(body);
                if (failure.isEmpty()) {
                    failure = forward(request, response, placed, body);
                }
            }
            if (failure.isPresent()) {
                error = failure.get().label();
                // a refused request ends its connection: whatever its client sends next is suspect
                failure.get().send(response, failure.get() == ProxyFailure.BAD_REQUEST
                        || (body != null && !body.fullyRead()));
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
            metrics.requestEnded();
            if (accessLog != null) {
                accessLog.log(client, request, response, placed, error, started);
            }
        }
    }

    // A body the key peek could not read: a client that left gets no answer, a body whose
    // framing Helidon's reader refused gets 400, before any backend saw a byte of it.
    private static Optional<ProxyFailure> clientBodyFailure(BodyPeek body) {
        if (body == null) {
            return Optional.empty();
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
    private Optional<ProxyFailure> forward(ServerRequest request, ServerResponse response, Placed placed,
                                           BodyPeek body) {
        if (placed.backend() == null) {
            LOGGER.log(Level.DEBUG, "no backends: {0} {1} answered 503", request.prologue().method().text(),
                    request.prologue().uriPath().rawPath());
            metrics.noBackend();
            return Optional.of(ProxyFailure.NO_BACKEND);
        }
        Backend owner = placed.backend();
        Optional<ProxyFailure> failure = forwarder.forward(request, response, owner, body);
        failure.ifPresent(it -> LOGGER.log(Level.WARNING, "backend {0}: {1} for {2} {3}", owner.id(), it,
                request.prologue().method().text(), request.prologue().uriPath().rawPath()));
        return failure;
    }

    @Override
    public void close() {
        forwarder.close();
        clientWatchdog.close();
        if (accessLog != null) {
            accessLog.close();
        }
    }

    TrustedProxies trustedProxies() {
        return settings.trustedProxies();
    }

    RoutingSnapshot snapshot() {
        return pool.snapshot();
    }

    BackendConnections connections() {
        return forwarder.connections();
    }

    RouterMetrics metrics() {
        return metrics;
    }

    /** The access log, or {@code null} when it is off. */
    AccessLog accessLog() {
        return accessLog;
    }

    /** {@link #locate}, counted in the metrics. */
    Placed place(HttpPrologue prologue, ServerRequestHeaders headers, RoutingSnapshot snapshot, BodyPeek body) {
        Placed placed = locate(prologue, headers, snapshot, body);
        count(placed);
        return placed;
    }

    /** Counts a placement in the metrics. */
    void count(Placed placed) {
        metrics.placed(placed.route(), placed.how());
    }

    /**
     * The backend a request goes to, its key's owner or the next in round-robin when it has none,
     * and why.
     *
     * @param body the body, or {@code null} when there is none (or none may be read)
     */
    Placed locate(HttpPrologue prologue, ServerRequestHeaders headers, RoutingSnapshot snapshot, BodyPeek body) {
        String path = RequestTarget.path(prologue);
        Optional<RouteMatch> match = routes.match(prologue.method().text(), path);
        if (match.isEmpty()) {
            return new Placed(snapshot.next().orElse(null), null, Placement.NO_ROUTE, null);
        }
        Route route = match.get().route();
        Optional<String> key = findKey(prologue, path, headers, match.get(), body);
        if (key.isPresent()) {
            if (LOGGER.isLoggable(Level.DEBUG)) {
                LOGGER.log(Level.DEBUG, "key {0} on {1}", SessionKeyDigest.of(key.get()), route);
            }
            return new Placed(snapshot.owner(key.get()).orElse(null), route, Placement.KEY, key.get());
        }
        Placement miss = missReason(body);
        if (LOGGER.isLoggable(Level.DEBUG)) {
            LOGGER.log(Level.DEBUG, "no key on {0}: {1}; round-robin", route, describe(miss));
        }
        return new Placed(snapshot.next().orElse(null), route, miss, null);
    }

    private Optional<String> findKey(HttpPrologue prologue, String path, ServerRequestHeaders headers,
                                     RouteMatch match, BodyPeek body) {
        io.insika.router.api.BodyPrefix visibleBody = match.route().needsBody() && body != null ? body : EmptyBody.INSTANCE;
        Map<String, String> parameters = match.pathParameters();
        IncomingRequestView view = new IncomingRequestView(prologue, path, headers, parameters, visibleBody);
        for (KeyExtractor extractor : match.route().extractors()) {
            try {
                Optional<String> key = extractor.extract(view);
                if (key.isPresent()) {
                    return key;
                }
            } catch (RuntimeException | StackOverflowError e) {
                // The contract says extractors never throw; a plugin that does must not cost the request.
                LOGGER.log(Level.WARNING, "key extractor " + extractor.getClass().getName() + " threw; no key", e);
            }
        }
        return Optional.empty();
    }

    private static Placement missReason(BodyPeek body) {
        if (body == null || body.peeked() == 0) {
            return Placement.NOTHING_TO_READ;
        }
        return body.exceedsLimit() ? Placement.KEY_BEYOND_CAP : Placement.KEY_ABSENT;
    }

    private String describe(Placement miss) {
        return switch (miss) {
            case NOTHING_TO_READ -> "no key: header, query, path or body absent or empty";
            case KEY_BEYOND_CAP -> "key not within the first " + settings.bodyMaxBytes() + " bytes of the body";
            default -> "key absent, or the body is not JSON";
        };
    }
}
