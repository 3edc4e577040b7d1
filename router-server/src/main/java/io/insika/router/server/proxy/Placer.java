package io.insika.router.server.proxy;

import java.lang.System.Logger.Level;
import java.util.List;
import java.util.Map;
import java.util.Optional;

import io.helidon.http.HttpPrologue;
import io.helidon.http.ServerRequestHeaders;
import io.insika.router.api.Backend;
import io.insika.router.api.BodyPrefix;
import io.insika.router.server.backends.BackendState;
import io.insika.router.server.backends.BackendStates;
import io.insika.router.server.backends.Refusal;
import io.insika.router.server.metrics.Placement;
import io.insika.router.server.metrics.RouterMetrics;
import io.insika.router.server.plugin.PluginFailureLog;
import io.insika.router.server.routing.BackendPool;
import io.insika.router.server.routing.LearnSpec;
import io.insika.router.server.routing.PluginFailedException;
import io.insika.router.server.routing.Route;
import io.insika.router.server.routing.RouteMatch;
import io.insika.router.server.routing.RouteTable;
import io.insika.router.server.routing.RoutingSnapshot;
import io.insika.router.server.session.SessionSeal;

/**
 * Where a request goes: its key's owner, or the next backend in round-robin when it has none,
 * and why. The proxy and the WebSocket tunnel place alike because both ask this.
 *
 * <p>Placing also admits: the request takes a slot of its backend (a request slot, or a tunnel
 * slot for an upgrade), held until it ends. A session whose owner is down or full is refused,
 * never sent elsewhere: its state lives there. A request without a key goes to the next backend
 * in rotation that is up and has a free slot.
 *
 * <p>A learned carrier (a key a backend mints) is read on every request, whatever its path: one
 * sent twice, or with a seal this router did not make where the carrier's {@code bad-seal} is
 * {@code reject}, is refused before anything else. A sealed one places the request whenever its
 * route does not by a key of its own (no route matched, the route learns, or its keys found
 * none): its owner is the backend the seal names, looked up by id (never hashed), and a session
 * whose owner is gone is refused, never placed elsewhere. A learning route's request without a
 * sealed carrier starts a session: round-robin.
 *
 * <p>A plugin that throws (the strategy's picker, or a key extractor) costs its request the
 * plugin-failure answer, never a guess: round-robin would scatter the session it may belong
 * to. The failure is counted per route and said once per plugin and interval.
 */
final class Placer {

    private static final System.Logger LOGGER = System.getLogger(Placer.class.getName());

    /** Which kind of slot a request takes on its backend. */
    enum Slot {
        REQUEST(Refusal.REQUESTS_FULL),
        TUNNEL(Refusal.TUNNELS_FULL);

        private final Refusal full;

        Slot(Refusal full) {
            this.full = full;
        }

        boolean take(BackendState state) {
            return this == REQUEST ? state.tryRequest() : state.tryTunnel();
        }
    }

    private final RouteTable routes;
    private final BackendPool pool;
    private final BackendStates states;
    private final RouterMetrics metrics;
    private final int bodyMaxBytes;
    private final LearnedCarriers carriers;
    private final PluginFailureLog failures;
    private final BeyondCapLog beyondCap;

    /**
     * @param seal     opens the values of routes that learn their keys
     * @param failures where plugin failures are said; outlives a reload's new placer, so a failing
     *                 plugin is still said once per interval
     * @param beyondCap where keys beyond the body cap are said; outlives a reload's placer too
     * @throws IllegalArgumentException if a route learns its key and there is no secret to seal it
     */
    Placer(RouteTable routes, BackendPool pool, BackendStates states, RouterMetrics metrics, int bodyMaxBytes,
           SessionSeal seal, PluginFailureLog failures, BeyondCapLog beyondCap) {
        if (!seal.isConfigured() && routes.routes().stream().anyMatch(route -> route.learn().isPresent())) {
            throw new IllegalArgumentException("a route learns its key from the backend, and there is no session"
                    + " secret to seal it with");
        }
        this.carriers = routes.learnedCarriers().isEmpty() ? LearnedCarriers.NONE
                : new LearnedCarriers(routes.learnedCarriers(), seal);
        this.routes = routes;
        this.pool = pool;
        this.states = states;
        this.metrics = metrics;
        this.bodyMaxBytes = bodyMaxBytes;
        this.failures = failures;
        this.beyondCap = beyondCap;
    }

    /** Counts a placement in the metrics. */
    void count(Placed placed) {
        KeyLookup lookup = placed.lookup();
        metrics.placed(lookup.route(), lookup.how());
        if (lookup.carriersDisagree()) {
            metrics.carrierMismatch(lookup.route());
        }
    }

    /**
     * Places a request on the current snapshot, read once, and takes its slot there.
     *
     * @param body the body, or {@code null} when there is none (or none may be read)
     * @param slot the kind of slot it takes; whoever gets it {@link Placed.Admitted admitted} gives it back
     */
    Placed locate(RequestTarget target, ServerRequestHeaders headers, BodyPeek body, Slot slot) {
        RoutingSnapshot snapshot = pool.snapshot();
        HttpPrologue prologue = target.prologue();
        Optional<RouteMatch> match = routes.match(prologue.method().text(), target.normalPath());
        Route route = match.isPresent() ? match.get().route() : null;
        SessionCarrier carrier = carriers.read(headers, route == null ? Optional.empty() : route.learn());
        Optional<CarrierClaim> refused = carrier.refusal();
        if (refused.isPresent()) {
            LOGGER.log(Level.DEBUG, "{0} on {1}: {2}; refused", refused.get().spec().name(), where(route),
                    refused.get().kind() == CarrierClaim.Kind.DUPLICATE ? "sent twice or with _ for -"
                            : "not sealed by us");
            return new Placed.Refused(new KeyLookup(route, Placement.KEY_ABSENT, null, carrier, false),
                    Optional.empty(), Outcome.BAD_SESSION);
        }
        if (route != null && route.learn().isEmpty()) {
            Optional<Found> found;
            try {
                found = findKey(target, headers, match.get(), body);
            } catch (PluginFailedException e) {
                return pluginFailed(new KeyLookup(route, Placement.KEY_ABSENT, null, carrier, false), e);
            }
            if (found.isPresent()) {
                String key = found.get().key();
                if (LOGGER.isLoggable(Level.DEBUG)) {
                    LOGGER.log(Level.DEBUG, "key {0} on {1}{2}", SessionKeyDigest.of(key), route,
                            found.get().carriersDisagree() ? " (its carriers disagree: placed by the first)" : "");
                }
                KeyLookup lookup = new KeyLookup(route, Placement.KEY, key, carrier, found.get().carriersDisagree());
                Optional<Backend> owner;
                try {
                    owner = snapshot.owner(key);
                } catch (PluginFailedException e) {
                    return pluginFailed(new KeyLookup(route, Placement.KEY, key, carrier, false), e);
                }
                return admitOwner(owner, lookup, slot);
            }
        }
        Optional<CarrierClaim> sealed = carrier.sealed();
        if (sealed.isPresent()) {
            return bySeal(snapshot, new KeyLookup(route, Placement.KEY, sealed.get().original(), carrier, false),
                    sealed.get(), slot);
        }
        return rotate(snapshot, new KeyLookup(route, unplaced(route, carrier, body), null, carrier, false), slot);
    }

    // Why a request no key placed goes round-robin.
    private Placement unplaced(Route route, SessionCarrier carrier, BodyPeek body) {
        if (route == null) {
            LOGGER.log(Level.DEBUG, "no route; round-robin");
            return Placement.NO_ROUTE;
        }
        if (route.learn().isPresent()) {
            LearnSpec spec = route.learn().get();
            boolean broken = carrier.kind(spec) == CarrierClaim.Kind.BROKEN;
            LOGGER.log(Level.DEBUG, broken ? "{0} on {1}: not sealed by us; round-robin"
                    : "no {0} on {1}: a new session; round-robin", spec.name(), route);
            return broken ? Placement.KEY_ABSENT : Placement.NEW_SESSION;
        }
        Placement miss = missReason(body);
        if (miss == Placement.KEY_BEYOND_CAP) {
            beyondCap.roundRobined(route, bodyMaxBytes);
        }
        if (LOGGER.isLoggable(Level.DEBUG)) {
            LOGGER.log(Level.DEBUG, "no key on {0}: {1}; round-robin", route, describe(miss));
        }
        return miss;
    }

    private static Object where(Route route) {
        return route == null ? "a path no route matches" : route;
    }

    /**
     * Another backend for a request without a key whose backend could not be reached (now marked
     * down, so the rotation passes it over): what nothing was sent to may go anywhere.
     *
     * @param failed the placement that failed; its slot is the caller's to give back
     * @return the next placement, holding a request slot, or refused
     */
    Placed redispatch(Placed.Admitted failed) {
        return rotate(pool.snapshot(), failed.lookup(), Slot.REQUEST);
    }

    /** How many backends a request could be sent to now. */
    int backendCount() {
        return pool.snapshot().backends().size();
    }

    // A sealed session goes to the backend that minted it, or nowhere: an owner no longer among
    // the backends means the session is gone. With no backends at all (a discovery gap) the
    // retryable envelope is kinder: the session may still be there when they are back.
    private Placed bySeal(RoutingSnapshot snapshot, KeyLookup lookup, CarrierClaim sealed, Slot slot) {
        Optional<Backend> owner = snapshot.byId(sealed.ownerId());
        if (LOGGER.isLoggable(Level.DEBUG)) {
            LOGGER.log(Level.DEBUG, "sealed {0} {1} on {2}: owner {3}{4}", sealed.spec().name(),
                    SessionKeyDigest.of(sealed.original()), where(lookup.route()), sealed.ownerId(),
                    owner.isPresent() || snapshot.isEmpty() ? "" : ", gone");
        }
        if (owner.isEmpty() && !snapshot.isEmpty()) {
            return new Placed.Refused(lookup, Optional.empty(), Outcome.SESSION_GONE);
        }
        return admitOwner(owner, lookup, slot);
    }

    private Placed pluginFailed(KeyLookup lookup, PluginFailedException failure) {
        metrics.pluginFailed(lookup.route(), failure.plugin());
        failures.failed(failure, "its requests on " + lookup.route() + " are answered "
                + Outcome.PLUGIN_FAILED.status().code());
        return new Placed.Refused(lookup, Optional.empty(), Outcome.PLUGIN_FAILED);
    }

    // The owner or nobody: a session moved off its owner would lose its state there.
    private Placed admitOwner(Optional<Backend> owner, KeyLookup lookup, Slot slot) {
        if (owner.isEmpty()) {
            return new Placed.NoBackend(lookup);
        }
        BackendState state = states.of(owner.get());
        if (state.isDown()) {
            state.refused(Refusal.DOWN);
            return new Placed.Refused(lookup, owner, Outcome.BACKEND_DOWN);
        }
        if (!slot.take(state)) {
            state.refused(slot.full);
            return new Placed.Refused(lookup, owner, Outcome.BACKEND_FULL);
        }
        return new Placed.Admitted(lookup, owner.get(), state);
    }

    // The next backend in rotation that is up and has a free slot. Each backend passed over
    // consumes its turn, so the others share its requests evenly. Requests racing this one take
    // turns too: a last pass in id order makes sure "all down" or "all full" is really so.
    private Placed rotate(RoutingSnapshot snapshot, KeyLookup lookup, Slot slot) {
        List<Backend> backends = snapshot.backends();
        if (backends.isEmpty()) {
            return new Placed.NoBackend(lookup);
        }
        boolean anyUp = false;
        for (int turn = 0; turn < backends.size(); turn++) {
            Backend next = snapshot.next().orElseThrow();
            BackendState state = states.of(next);
            if (state.isDown()) {
                state.refused(Refusal.DOWN);
                continue;
            }
            anyUp = true;
            if (slot.take(state)) {
                return new Placed.Admitted(lookup, next, state);
            }
            state.refused(slot.full);
        }
        for (Backend backend : backends) {
            BackendState state = states.of(backend);
            if (!state.isDown()) {
                anyUp = true;
                if (slot.take(state)) {
                    return new Placed.Admitted(lookup, backend, state);
                }
            }
        }
        return new Placed.Refused(lookup, Optional.empty(), anyUp ? Outcome.BACKEND_FULL : Outcome.BACKEND_DOWN);
    }

    /** A key, and whether a later carrier of the route said otherwise. */
    private record Found(String key, boolean carriersDisagree) {
    }

    // The first carrier that has the key decides. The later ones are read too when they are
    // cheap (no body): a route's carriers hold one key, and a client whose header and path
    // disagree has a stale token, which costs a hop, so it is counted and never refused.
    private Optional<Found> findKey(RequestTarget target, ServerRequestHeaders headers, RouteMatch match,
                                    BodyPeek body) {
        BodyPrefix visibleBody = match.route().needsBody() && body != null ? body : EmptyBody.INSTANCE;
        Map<String, String> parameters = match.pathParameters();
        IncomingRequestView view = new IncomingRequestView(target.prologue(), target.normalPath(), headers, parameters,
                visibleBody);
        Route route = match.route();
        for (int i = 0; i < route.extractors().size(); i++) {
            Optional<String> key = extract(route, i, view);
            if (key.isPresent()) {
                return Optional.of(new Found(key.get(), disagree(key.get(), route, i + 1, view)));
            }
        }
        return Optional.empty();
    }

    private static boolean disagree(String key, Route route, int from, IncomingRequestView view) {
        for (int i = from; i < route.extractors().size(); i++) {
            if (!route.extractors().get(i).needsBody()
                    && extract(route, i, view).filter(other -> !other.equals(key)).isPresent()) {
                return true;
            }
        }
        return false;
    }

    // The contract says extractors never throw; one that does is named, whichever carrier it is.
    private static Optional<String> extract(Route route, int index, IncomingRequestView view) {
        try {
            return route.extractors().get(index).extract(view);
        } catch (RuntimeException | StackOverflowError e) {
            throw new PluginFailedException("key extractor", route.keyTypes().get(index), "reading a key", e);
        }
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
            case KEY_BEYOND_CAP -> "no key within the first " + bodyMaxBytes + " bytes, and the body goes on past them";
            default -> "key absent, or the body is not JSON";
        };
    }
}
