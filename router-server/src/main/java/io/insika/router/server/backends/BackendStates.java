package io.insika.router.server.backends;

import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

import io.insika.router.api.Backend;

/**
 * The live state of every backend in the pool, by id. A backend's state is made on first use
 * with the limits configured for it, and forgotten once the backend has left the pool and
 * nothing is in flight to it; one that comes back starts afresh.
 */
public final class BackendStates {

    private volatile BackendCapacity capacity;
    private final Duration downTime;
    private final Map<String, BackendState> states = new ConcurrentHashMap<>();

    /**
     * @param capacity the limits of each backend
     * @param health   how long a failed connect marks a backend down
     */
    public BackendStates(BackendCapacity capacity, HealthSettings health) {
        this.capacity = capacity;
        this.downTime = health.downTime();
    }

    /**
     * Sets every backend's limits, those of backends already known included: requests in flight
     * keep their slots, and a lowered limit admits no more until enough of them have ended.
     */
    public void capacity(BackendCapacity capacity) {
        this.capacity = capacity;
        states.values().forEach(state -> state.limits(capacity.of(state.id())));
    }

    /** The state of this backend. */
    public BackendState of(Backend backend) {
        BackendState state = states.get(backend.id());
        return state != null ? state : create(backend.id());
    }

    private BackendState create(String id) {
        BackendState state = states.computeIfAbsent(id, key -> new BackendState(key, capacity.of(key), downTime));
        // A reload between reading the capacity and the insert may have walked past this state:
        // read it again now that the state is in the map.
        BackendLimits limits = capacity.of(id);
        if (!state.limits().equals(limits)) {
            state.limits(limits);
        }
        return state;
    }

    /**
     * The states of these backends, in their order; the states of backends not among them with
     * nothing in flight are dropped.
     *
     * @param backends the pool's backends now
     */
    public List<BackendState> current(List<Backend> backends) {
        List<BackendState> current = new ArrayList<>(backends.size());
        Set<String> ids = new HashSet<>();
        for (Backend backend : backends) {
            current.add(of(backend));
            ids.add(backend.id());
        }
        states.values().removeIf(state -> !ids.contains(state.id()) && state.requestsInFlight() == 0
                && state.tunnelsOpen() == 0);
        return current;
    }
}
