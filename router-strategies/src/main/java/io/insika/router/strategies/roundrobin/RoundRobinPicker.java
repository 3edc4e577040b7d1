package io.insika.router.strategies.roundrobin;

import java.util.List;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicLong;

import io.insika.router.api.Backend;
import io.insika.router.api.Picker;
import io.insika.router.strategies.placement.BackendSet;

/** The next backend in id order, whatever the key; shares its strategy's cursor. */
final class RoundRobinPicker implements Picker {

    private final BackendSet backends;
    private final AtomicLong cursor;

    RoundRobinPicker(BackendSet backends, AtomicLong cursor) {
        this.backends = backends;
        this.cursor = cursor;
    }

    @Override
    public Optional<Backend> pick(String key) {
        int size = backends.size();
        if (size == 0) {
            return Optional.empty();
        }
        // floorMod keeps the index in range even after the counter wraps past Long.MAX_VALUE.
        return backends.owner((int) Math.floorMod(cursor.getAndIncrement(), (long) size));
    }

    @Override
    public List<Backend> backends() {
        return backends.list();
    }
}
