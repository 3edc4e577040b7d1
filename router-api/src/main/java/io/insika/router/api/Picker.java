package io.insika.router.api;

import java.util.List;
import java.util.Optional;

/**
 * Maps a session key to the backend that owns it, for one fixed set of backends.
 *
 * <p>A picker is immutable and thread-safe; it is called on every request, concurrently, so
 * {@link #pick(String)} should allocate nothing it can avoid and must never block or throw.
 * Immutable means its answers never change: it may remember answers it has computed (the
 * built-in {@code ketama} and {@code rendezvous} pickers remember recent keys' owners), since
 * a new picker is built for every change of the backends.
 */
public interface Picker {

    /**
     * The owner of a key.
     *
     * @param key the session key; never {@code null}, possibly empty
     * @return the owning backend, or empty only when this picker has no backends
     */
    Optional<Backend> pick(String key);

    /**
     * The backends this picker places keys on.
     *
     * @return the backends, sorted by id
     */
    List<Backend> backends();
}
