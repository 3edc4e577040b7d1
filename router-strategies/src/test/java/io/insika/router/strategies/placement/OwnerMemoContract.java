package io.insika.router.strategies.placement;

import static io.insika.router.strategies.placement.PlacementFixtures.backend;
import static io.insika.router.strategies.placement.PlacementFixtures.backends;
import static io.insika.router.strategies.placement.PlacementFixtures.with;
import static io.insika.router.strategies.placement.PlacementFixtures.without;
import static org.hamcrest.MatcherAssert.assertThat;
import static org.hamcrest.Matchers.empty;
import static org.hamcrest.Matchers.greaterThan;
import static org.hamcrest.Matchers.is;

import java.util.ArrayList;
import java.util.Collections;
import java.util.HashSet;
import java.util.List;
import java.util.Random;
import java.util.Set;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.function.Function;

import io.insika.router.api.Backend;
import io.insika.router.api.Picker;
import org.junit.jupiter.api.Test;

/**
 * What a picker that remembers owners ({@link OwnerMemo}) must keep true: it answers exactly
 * what its placement computes without the memo, whatever the keys and the threads.
 */
public interface OwnerMemoContract {

    /** The picker as the router gets it, through the strategy's provider. */
    Picker picker(List<Backend> backends);

    /** The placement without any memo, for the same backends. */
    Function<String, Backend> uncached(List<Backend> backends);

    private static List<Backend> weighted() {
        List<Backend> weighted = new ArrayList<>();
        for (int i = 1; i <= 20; i++) {
            weighted.add(backend("10.2.0." + i + ":8080", 1 + i % 3));
        }
        return weighted;
    }

    /** Keys of 0 to 80 chars, ASCII, accented and lone surrogates, so some are too long to keep. */
    private static List<String> randomKeys(int count, long seed) {
        Random random = new Random(seed);
        String alphabet = "abcdefghijklmnopqrstuvwxyz0123456789-_éü\uD800";
        List<String> keys = new ArrayList<>(count);
        for (int i = 0; i < count; i++) {
            StringBuilder key = new StringBuilder();
            for (int length = random.nextInt(81); length > 0; length--) {
                key.append(alphabet.charAt(random.nextInt(alphabet.length())));
            }
            keys.add(key.toString());
        }
        return keys;
    }

    private static List<String> mismatches(Picker picker, Function<String, Backend> uncached, List<String> keys) {
        List<String> wrong = new ArrayList<>();
        for (String key : keys) {
            if (!picker.pick(key).orElseThrow().equals(uncached.apply(key))) {
                wrong.add(key);
            }
        }
        return wrong;
    }

    @Test
    default void randomKeysPickedTwiceGetTheUncachedOwnerBothTimes() {
        for (List<Backend> backends : List.of(backends(7), weighted())) {
            Picker picker = picker(backends);
            List<String> keys = randomKeys(20_000, 1);

            assertThat(mismatches(picker, uncached(backends), keys), is(empty()));
            assertThat(mismatches(picker, uncached(backends), keys), is(empty()));
        }
    }

    @Test
    default void keysSharingASetEachGetTheirOwnOwner() {
        // Every string of eight "Aa" and "BB" blocks has the same String.hashCode, so one set.
        List<String> keys = new ArrayList<>();
        for (int bits = 0; bits < 1 << 8; bits++) {
            StringBuilder key = new StringBuilder();
            for (int block = 0; block < 8; block++) {
                key.append((bits >> block & 1) == 0 ? "Aa" : "BB");
            }
            keys.add(key.toString());
        }
        List<Backend> backends = backends(7);
        Function<String, Backend> uncached = uncached(backends);
        Picker picker = picker(backends);
        Set<Backend> owners = new HashSet<>();
        keys.forEach(key -> owners.add(uncached.apply(key)));

        assertThat(owners.size(), greaterThan(1));
        for (int round = 0; round < 3; round++) {
            assertThat(mismatches(picker, uncached, keys), is(empty()));
        }
    }

    @Test
    default void keysTooLongToKeepAreStillPlacedRight() {
        List<String> keys = new ArrayList<>();
        for (int i = 0; i < 200; i++) {
            keys.add("k".repeat(OwnerMemo.MAX_KEY_LENGTH + 1 + i % 50) + i);
        }
        keys.add("x".repeat(100_000));
        List<Backend> backends = backends(7);
        Picker picker = picker(backends);

        assertThat(mismatches(picker, uncached(backends), keys), is(empty()));
        assertThat(mismatches(picker, uncached(backends), keys), is(empty()));
    }

    @Test
    default void concurrentPicksAgreeWithTheUncachedOwners() throws Exception {
        List<Backend> backends = weighted();
        Function<String, Backend> uncached = uncached(backends);
        Picker picker = picker(backends);
        // More keys than slots, taken in a different order by each thread, so threads keep
        // replacing the entries others read.
        List<String> keys = randomKeys(12_000, 2);
        List<Future<List<String>>> results = new ArrayList<>();
        try (ExecutorService threads = Executors.newFixedThreadPool(4)) {
            for (int thread = 0; thread < 4; thread++) {
                List<String> order = new ArrayList<>(keys);
                Collections.shuffle(order, new Random(thread));
                results.add(threads.submit(() -> {
                    List<String> wrong = new ArrayList<>();
                    for (int round = 0; round < 3; round++) {
                        wrong.addAll(mismatches(picker, uncached, order));
                    }
                    return wrong;
                }));
            }
            for (Future<List<String>> result : results) {
                assertThat(result.get(), is(empty()));
            }
        }
    }

    @Test
    default void aPickerForChangedBackendsAnswersFromTheNewSet() {
        List<Backend> before = backends(10);
        Backend removed = before.get(3);
        List<Backend> after = with(without(before, removed), backend("10.0.0.99:8080", 1));
        List<String> keys = randomKeys(5_000, 3);
        Picker old = picker(before);
        keys.forEach(old::pick);

        Picker picker = picker(after);

        assertThat(mismatches(picker, uncached(after), keys), is(empty()));
        assertThat(keys.stream().filter(key -> picker.pick(key).orElseThrow().equals(removed)).toList(), is(empty()));
    }
}
