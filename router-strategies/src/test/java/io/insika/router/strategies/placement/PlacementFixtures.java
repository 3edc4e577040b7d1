package io.insika.router.strategies.placement;

import java.net.URI;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;

import io.insika.router.api.Backend;
import io.insika.router.api.Picker;

/** Backends, keys and measurements shared by the strategies' property tests. */
public final class PlacementFixtures {

    private PlacementFixtures() {
    }

    /** {@code http://10.0.0.1:8080} .. {@code http://10.0.0.<n>:8080}, weight 1. */
    public static List<Backend> backends(int n) {
        return backends("10.0.0.%d:8080", n);
    }

    /** Backends whose {@code host:port} is the pattern filled with 1..n, weight 1. */
    public static List<Backend> backends(String hostPortPattern, int n) {
        List<Backend> backends = new ArrayList<>();
        for (int i = 1; i <= n; i++) {
            backends.add(backend(String.format(hostPortPattern, i), 1));
        }
        return List.copyOf(backends);
    }

    public static Backend backend(String hostPort, int weight) {
        return Backend.of(URI.create("http://" + hostPort), weight);
    }

    /** {@code session-0} .. {@code session-<n-1>}. */
    public static List<String> keys(int n) {
        List<String> keys = new ArrayList<>(n);
        for (int i = 0; i < n; i++) {
            keys.add("session-" + i);
        }
        return keys;
    }

    /** The same backends in another, fixed, order. */
    public static List<Backend> shuffled(List<Backend> backends, long seed) {
        List<Backend> copy = new ArrayList<>(backends);
        Collections.shuffle(copy, new Random(seed));
        return copy;
    }

    public static List<Backend> without(List<Backend> backends, Backend removed) {
        return backends.stream().filter(b -> !b.equals(removed)).toList();
    }

    public static List<Backend> with(List<Backend> backends, Backend added) {
        List<Backend> copy = new ArrayList<>(backends);
        copy.add(added);
        return copy;
    }

    /** The owner's id of every key, in key order. */
    public static String[] ownerIds(Picker picker, List<String> keys) {
        String[] owners = new String[keys.size()];
        for (int i = 0; i < owners.length; i++) {
            owners[i] = picker.pick(keys.get(i)).orElseThrow().id();
        }
        return owners;
    }

    /** How many keys each backend id owns. */
    public static Map<String, Integer> counts(String[] ownerIds) {
        Map<String, Integer> counts = new HashMap<>();
        for (String id : ownerIds) {
            counts.merge(id, 1, Integer::sum);
        }
        return counts;
    }

    /** The busiest backend's keys over the mean, counting backends that own none too. */
    public static double busiestOverMean(String[] ownerIds, int backendCount) {
        int busiest = counts(ownerIds).values().stream().mapToInt(Integer::intValue).max().orElse(0);
        return busiest / ((double) ownerIds.length / backendCount);
    }

    /**
     * The worst relative error between the share of keys a backend owns and its share of the
     * total weight: 0.1 means some backend is 10% above or below its due.
     */
    public static double worstWeightError(String[] ownerIds, List<Backend> backends) {
        Map<String, Integer> counts = counts(ownerIds);
        double totalWeight = backends.stream().mapToInt(Backend::weight).sum();
        double worst = 0;
        for (Backend backend : backends) {
            double due = backend.weight() / totalWeight;
            double got = counts.getOrDefault(backend.id(), 0) / (double) ownerIds.length;
            worst = Math.max(worst, Math.abs(got - due) / due);
        }
        return worst;
    }
}
