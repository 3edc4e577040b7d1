package io.insika.router.server.proxy;

import java.lang.System.Logger.Level;
import java.net.SocketAddress;
import java.util.Map;
import java.util.Optional;
import java.util.stream.Collectors;

import io.helidon.http.HttpPrologue;
import io.helidon.http.ServerRequestHeaders;
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
        try {
            BodyPeek body = request.content().hasEntity()
                    ? new BodyPeek(clientWatchdog.watch(request.content().inputStream()), settings.bodyMaxBytes(),
                            request.headers().contentLength().orElse(-1))
                    : null;
            placed = place(request.prologue(), request.headers(), pool.snapshot(), body);
            if (body != null) {
                try {
                    body.requireClient();
                } catch (ClientGoneException e) {
                    throw new ClientLeftException("client went away while its body was read for the key", e);
                }
            }
            error = forward(request, response, placed, body);
        } catch (BackendBrokeException e) {
            error = BackendError.BROKEN.label();
            throw e;
        } catch (ClientLeftException e) {
            error = e.timedOut() ? "client-timeout" : "client-left";
            throw e;
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

    /** @return the failure's label, or {@code null} when the backend's answer was relayed */
    private String forward(ServerRequest request, ServerResponse response, Placed placed, BodyPeek body) {
        if (placed.backend() == null) {
            LOGGER.log(Level.DEBUG, "no backends: {0} {1} answered 503", request.prologue().method().text(),
                    request.prologue().uriPath().rawPath());
            metrics.noBackend();
            ProxyFailure.UNAVAILABLE.send(response, body != null);
            return BackendError.NO_BACKEND.label();
        }
        Backend owner = placed.backend();
        Optional<ProxyFailure> failure = forwarder.forward(request, response, owner, body);
        if (failure.isEmpty()) {
            return null;
        }
        ProxyFailure it = failure.get();
        LOGGER.log(Level.WARNING, "backend {0}: {1} for {2} {3}", owner.id(), it,
                request.prologue().method().text(), request.prologue().uriPath().rawPath());
        it.send(response, body != null);
        return it.error().label();
    }

    @Override
    public void close() {
        forwarder.close();
        clientWatchdog.close();
        if (accessLog != null) {
            accessLog.close();
        }
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
        Optional<RouteMatch> match = routes.match(prologue.method().text(), prologue.uriPath().rawPath());
        if (match.isEmpty()) {
            return new Placed(snapshot.next().orElse(null), null, Placement.NO_ROUTE, null);
        }
        Route route = match.get().route();
        Optional<String> key = findKey(prologue, headers, match.get(), body);
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

    private Optional<String> findKey(HttpPrologue prologue, ServerRequestHeaders headers, RouteMatch match,
                                     BodyPeek body) {
        io.insika.router.api.BodyPrefix visibleBody = match.route().needsBody() && body != null ? body : EmptyBody.INSTANCE;
        Map<String, String> parameters = match.pathParameters();
        IncomingRequestView view = new IncomingRequestView(prologue, headers, parameters, visibleBody);
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
