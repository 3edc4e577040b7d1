package io.insika.router.server.routing;

import java.util.ArrayList;
import java.util.Collection;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicReference;

import io.insika.router.api.Backend;
import io.insika.router.api.PluginOptions;
import io.insika.router.api.RouteStrategy;

/**
 * The current backends and their pickers, behind one atomic reference.
 *
 * <p>Requests read {@link #snapshot()} without locking. Updates come from discovery (a static
 * list once, or every DNS answer); a new snapshot is built, off the request path, only when the
 * set actually changed, so an answer listing the same backends in another order costs nothing.
 */
public final class BackendPool {

    private static final Comparator<Backend> BY_ID = Comparator.comparing(Backend::id);

    /** The strategy that places keyed requests, as configured: replaced only by a reload that may. */
    private record Strategy(RouteStrategy strategy, String name, PluginOptions options) {
    }

    private final RouteStrategy rotation;
    private volatile Strategy strategy;
    private final AtomicReference<RoutingSnapshot> current;

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

    /** A pool whose fingerprint names the strategy by its class: for tests that build one by hand. */
    public BackendPool(RouteStrategy strategy, RouteStrategy rotation) {
        this(strategy, strategy.getClass().getName(), PluginOptions.empty(), rotation);
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

    /**
     * Replaces the backend set.
     *
     * @param backends the new set in any order; a backend listed twice (same id) counts once,
     *                 the first listing wins
     * @return what changed, or empty if the set is the same as before
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
        current.set(build(next));
        List<Backend> added = next.stream().filter(b -> !previous.contains(b)).toList();
        List<Backend> removed = previous.stream().filter(b -> !next.contains(b)).toList();
        return Optional.of(new BackendSetChange(added, removed, List.copyOf(next)));
    }

    /**
     * Places keys with another strategy from now on, over the same backends: a reload that was
     * told it may move sessions. Requests that already read a snapshot keep the old placement.
     */
    public synchronized void strategy(RouteStrategy next, String name, PluginOptions options) {
        strategy = new Strategy(next, name, options);
        current.set(build(current.get().backends()));
    }

    private RoutingSnapshot build(List<Backend> backends) {
        List<Backend> frozen = List.copyOf(backends);
        Strategy placing = strategy;
        return new RoutingSnapshot(frozen, placing.strategy().picker(frozen), rotation.picker(frozen),
                RingFingerprint.of(placing.name(), placing.options(), frozen));
    }
}
