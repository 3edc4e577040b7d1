package io.insika.router.server.routing;

import java.time.Instant;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicReference;

import io.insika.router.api.Backend;
import io.insika.router.api.Picker;
import io.insika.router.api.PluginOptions;
import io.insika.router.api.RouteStrategy;
import io.insika.router.server.plugin.PluginFailureLog;

/**
 * The current backends and their pickers, behind one atomic reference.
 *
 * <p>Requests read {@link #snapshot()} without locking. Updates come from discovery (a static
 * list once, or every DNS answer); a new snapshot is built, off the request path, only when the
 * set actually changed, so an answer listing the same backends in another order costs nothing.
 *
 * <p>A strategy that throws building the picker for a new set (a plugin breaking its contract)
 * leaves the last snapshot in place: discovery goes on, the next change of the set tries again,
 * and {@link #buildFailure()} says what happened until a build succeeds.
 */
public final class BackendPool {

    private static final Comparator<Backend> BY_ID = Comparator.comparing(Backend::id);

    // What any strategy builds for no backends: asking a plugin cannot give a better answer.
    private static final Picker NOBODY = new Picker() {
        @Override
        public Optional<Backend> pick(String key) {
            return Optional.empty();
        }

        @Override
        public List<Backend> backends() {
            return List.of();
        }
    };

    /**
     * The strategy threw building the picker for a new backend set, which was not applied.
     *
     * @param failure  what threw
     * @param offered  how many backends the set not applied had
     * @param at       when
     */
    public record BuildFailure(PluginFailedException failure, int offered, Instant at) {
    }

    /** The strategy that places keyed requests, as configured: replaced only by a reload that may. */
    private record Strategy(RouteStrategy strategy, String name, PluginOptions options) {
    }

    private final RouteStrategy rotation;
    private volatile Strategy strategy;
    private final AtomicReference<RoutingSnapshot> current;
    private final PluginFailureLog failures = new PluginFailureLog();
    private volatile BuildFailure buildFailure; // null while the last build succeeded

    /**
     * An empty pool.
     *
     * @param strategy        places keyed requests
     * @param strategyName    its name, for the ring fingerprint
     * @param strategyOptions its options, for the ring fingerprint
     * @param rotation        places requests without a key
     */
    public BackendPool(RouteStrategy strategy, String strategyName, PluginOptions strategyOptions, RouteStrategy rotation) {
        this.strategy = new Strategy(strategy, strategyName, strategyOptions);
        this.rotation = rotation;
        this.current = new AtomicReference<>(build(List.of()));
    }

    /** The strategy's name, as configured. */
    public String strategyName() {
        return strategy.name();
    }

    /** The strategy's options, as configured. */
    public PluginOptions strategyOptions() {
        return strategy.options();
    }

    public RoutingSnapshot snapshot() {
        return current.get();
    }

    /** Why the snapshot is not of the last backend set discovery offered, if so. */
    public Optional<BuildFailure> buildFailure() {
        return Optional.ofNullable(buildFailure);
    }

    /**
     * Replaces the backend set.
     *
     * @param backends the new set in any order; a backend listed twice (same id) counts once,
     *                 the first listing wins
     * @return what changed, or empty if the set is the same as before, or if the strategy threw
     *         building its picker (then the last snapshot stays)
     */
    public synchronized Optional<BackendSetChange> update(Collection<Backend> backends) {
        Map<String, Backend> unique = new LinkedHashMap<>();
        for (Backend backend : backends) {
            unique.putIfAbsent(backend.id(), backend);
        }
        List<Backend> next = new ArrayList<>(unique.values());
        next.sort(BY_ID);
        List<Backend> previous = current.get().backends();
        if (previous.equals(next)) {
            return Optional.empty();
        }
        RoutingSnapshot built;
        try {
            built = build(next);
        } catch (PluginFailedException e) {
            buildFailure = new BuildFailure(e, next.size(), Instant.now());
            failures.failed(e, "kept the previous " + previous.size() + " backend(s) instead of the " + next.size()
                    + " offered; tried again when backends are offered next");
            return Optional.empty();
        }
        buildFailure = null;
        current.set(built);
        List<Backend> added = next.stream().filter(b -> !previous.contains(b)).toList();
        List<Backend> removed = previous.stream().filter(b -> !next.contains(b)).toList();
        return Optional.of(new BackendSetChange(added, removed, List.copyOf(next)));
    }

    /**
     * Places keys with another strategy from now on, over the same backends: a reload that was
     * told it may move sessions. Requests that already read a snapshot keep the old placement.
     *
     * @throws PluginFailedException if the strategy throws building its picker; the pool is
     *                               then as it was
     */
    public synchronized void strategy(RouteStrategy next, String name, PluginOptions options) {
        Strategy placing = new Strategy(next, name, options);
        RoutingSnapshot built = build(placing, current.get().backends());
        strategy = placing;
        current.set(built);
    }

    private RoutingSnapshot build(List<Backend> backends) {
        return build(strategy, backends);
    }

    private RoutingSnapshot build(Strategy placing, List<Backend> backends) {
        List<Backend> frozen = List.copyOf(backends);
        Picker owners = frozen.isEmpty() ? NOBODY : picker(placing, frozen);
        return new RoutingSnapshot(frozen, placing.name(), owners, rotation.picker(frozen),
                RingFingerprint.of(placing.name(), placing.options(), frozen));
    }

    private static Picker picker(Strategy placing, List<Backend> backends) {
        try {
            return placing.strategy().picker(backends);
        } catch (RuntimeException | StackOverflowError e) {
            throw new PluginFailedException("strategy", placing.name(), "building a picker", e);
        }
    }
}
