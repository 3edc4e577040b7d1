package io.insika.router.server.proxy;

import java.lang.System.Logger.Level;
import java.util.Map;
import java.util.Optional;

import io.helidon.http.HttpPrologue;
import io.helidon.http.ServerRequestHeaders;
import io.insika.router.api.BodyPrefix;
import io.insika.router.api.KeyExtractor;
import io.insika.router.server.metrics.Placement;
import io.insika.router.server.metrics.RouterMetrics;
import io.insika.router.server.routing.BackendPool;
import io.insika.router.server.routing.Route;
import io.insika.router.server.routing.RouteMatch;
import io.insika.router.server.routing.RouteTable;
import io.insika.router.server.routing.RoutingSnapshot;

/**
 * Where a request goes: its key's owner, or the next backend in round-robin when it has none,
 * and why. The proxy and the WebSocket tunnel place alike because both ask this.
 */
final class Placer {

    private static final System.Logger LOGGER = System.getLogger(Placer.class.getName());

    private final RouteTable routes;
    private final BackendPool pool;
    private final RouterMetrics metrics;
    private final int bodyMaxBytes;

    Placer(RouteTable routes, BackendPool pool, RouterMetrics metrics, int bodyMaxBytes) {
        this.routes = routes;
        this.pool = pool;
        this.metrics = metrics;
        this.bodyMaxBytes = bodyMaxBytes;
    }

    /** {@link #locate}, counted in the metrics. */
    Placed place(HttpPrologue prologue, ServerRequestHeaders headers, BodyPeek body) {
        Placed placed = locate(prologue, headers, body);
        count(placed);
        return placed;
    }

    /** Counts a placement in the metrics. */
    void count(Placed placed) {
        metrics.placed(placed.route(), placed.how());
    }

    /**
     * Places a request on the current snapshot, read once.
     *
     * @param body the body, or {@code null} when there is none (or none may be read)
     */
    Placed locate(HttpPrologue prologue, ServerRequestHeaders headers, BodyPeek body) {
        RoutingSnapshot snapshot = pool.snapshot();
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
        BodyPrefix visibleBody = match.route().needsBody() && body != null ? body : EmptyBody.INSTANCE;
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
            case KEY_BEYOND_CAP -> "key not within the first " + bodyMaxBytes + " bytes of the body";
            default -> "key absent, or the body is not JSON";
        };
    }
}
