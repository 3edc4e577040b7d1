package io.insika.router.strategies.placement;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;

import io.insika.router.api.Backend;

/**
 * The backends one picker places keys on, in the one order every replica agrees on: sorted by
 * {@link Backend#id()}.
 *
 * <p>Strategies index backends by their position in this set, which depends only on the ids,
 * never on the order the router was given them. Each backend's {@code Optional} is made once
 * here so a picker returns an owner without allocating. Instances are immutable.
 */
public final class BackendSet {

    private static final Comparator<Backend> BY_ID = Comparator.comparing(Backend::id);

    private final List<Backend> sorted;
    private final Optional<Backend>[] owners;
    private final boolean equalWeights;

    private BackendSet(List<Backend> sorted) {
        this.sorted = sorted;
        @SuppressWarnings("unchecked")
        Optional<Backend>[] made = new Optional[sorted.size()];
        for (int i = 0; i < made.length; i++) {
            made[i] = Optional.of(sorted.get(i));
        }
        this.owners = made;
        this.equalWeights = sorted.stream().mapToInt(Backend::weight).distinct().count() <= 1;
    }

    /**
     * Sorts the backends by id.
     *
     * @param backends the backends in any order; possibly empty
     * @return the set
     * @throws IllegalArgumentException if two backends have the same id, which the
     *                                  {@link io.insika.router.api.RouteStrategy} contract rules out
     */
    public static BackendSet of(List<Backend> backends) {
        List<Backend> sorted = new ArrayList<>(backends);
        sorted.sort(BY_ID);
        for (int i = 1; i < sorted.size(); i++) {
            if (sorted.get(i).id().equals(sorted.get(i - 1).id())) {
                throw new IllegalArgumentException("backends: [" + sorted.get(i).id() + "] listed twice (expected: distinct ids)");
            }
        }
        return new BackendSet(List.copyOf(sorted));
    }

    /** How many backends there are. */
    public int size() {
        return sorted.size();
    }

    /** The backend at a position in id order. */
    public Backend get(int index) {
        return sorted.get(index);
    }

    /** The backend at a position in id order, as the answer a picker returns. */
    public Optional<Backend> owner(int index) {
        return owners[index];
    }

    /** Whether every backend has the same weight (trivially true for zero or one backend). */
    public boolean equalWeights() {
        return equalWeights;
    }

    /** The backends, sorted by id; immutable. */
    public List<Backend> list() {
        return sorted;
    }
}
