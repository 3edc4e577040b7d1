package io.insika.router.api;

import java.util.List;

/**
 * A configured placement policy: turns a set of backends into a {@link Picker}.
 *
 * <p>The router calls {@link #picker(List)} each time the backend set changes (never on a
 * request) and publishes the new picker atomically. The placement a picker makes for a key must
 * be a pure function of the key and the <em>set</em> of backends (their ids, weights and this
 * strategy's options), never of the list's order, the time, the JVM or the process: two router
 * replicas that see the same backends must agree on every key.
 *
 * <p>A strategy may keep state that outlives its pickers (the round-robin cursor does, so a
 * rebuild does not restart the rotation). Implementations must be thread-safe.
 */
public interface RouteStrategy {

    /**
     * Builds the picker for exactly these backends.
     *
     * @param backends the current backends: immutable, no two with the same id, in no
     *                 particular order; possibly empty
     * @return an immutable, thread-safe picker; for an empty list one that picks nothing
     */
    Picker picker(List<Backend> backends);
}
