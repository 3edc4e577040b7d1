package io.insika.router.strategies.placement;

import java.util.concurrent.ThreadLocalRandom;
import java.util.function.ToIntFunction;

/**
 * The owners of recently placed keys, so that a session's later requests skip the key hash
 * (ketama's MD5, rendezvous' score of every backend).
 *
 * <p>8192 entries of a key and the owner (index in id order) the placement gave it, in sets of
 * eight: a key has one set, chosen by its {@code String} hash; a key found in none of its
 * entries is placed again and takes a free entry of the set, or a random one (one write, where
 * keeping the set in recency order moved all eight on every miss, which cost a new key
 * 100-150 ns more at N = 1000). Eight ways rather than two: 4096 sessions in turn (the benchmark's warm case)
 * missed 27% of the time in 2-way sets (a set shared by three keys or more), about 5% in 8-way
 * ones, for the same memory; the set's hashes share a cache line, so a lookup reads no more.
 * The answer is always the
 * placement's own: a memo belongs to one picker, whose backends never change, so an entry
 * cannot go stale. Only keys of up to 64 chars are kept, so a flood of long distinct keys
 * cannot grow it: at most about 1.6 MiB per picker (8192 keys of 64 UTF-16 chars with their
 * entries), about 0.9 MiB with UUID-shaped keys.
 *
 * <p>Not a Caffeine cache (which this module does not depend on): a hash-map lookup plus the
 * read bookkeeping of its eviction policy, on every request, would eat much of what it saves,
 * while a hit here is a hash, two array reads and one {@code equals}, and nothing allocated.
 */
public final class OwnerMemo {

    /** Longer keys are placed on every request and never kept. */
    public static final int MAX_KEY_LENGTH = 64;

    private static final int WAYS = 8;
    private static final int SET_BITS = 10;

    private final ToIntFunction<String> placement;
    // Threads read and replace entries without locks. An entry's fields are final, so whoever
    // sees an entry sees its key and owner whole (JLS 17.5); a torn or lost update only costs a
    // later placement: the picker stays immutable in what it answers, and thread-safe.
    private final Entry[] entries = new Entry[WAYS << SET_BITS];
    // Each entry's key hash, beside the entries: a key that is not there is told by one read
    // here instead of following an entry, its key and the key's bytes through cold memory.
    // Only a hint: a found entry's key is always compared.
    private final int[] hashes = new int[WAYS << SET_BITS];

    /**
     * @param placement the uncached placement: the owner's index for a key, a pure function
     */
    public OwnerMemo(ToIntFunction<String> placement) {
        this.placement = placement;
    }

    /** The placement's answer for the key, remembered when the key is short. */
    public int ownerOf(String key) {
        if (key.length() > MAX_KEY_LENGTH) {
            return placement.applyAsInt(key);
        }
        int hash = key.hashCode();
        int first = firstOfSet(hash);
        // Only the hashes are read until one matches: a miss touches one cache line of them, not
        // the entries'. Hash 0 is taken as a free entry: a key whose hash is 0 may be replaced
        // early, which only costs it a placement.
        int free = -1;
        for (int at = first; at < first + WAYS; at++) {
            int remembered = hashes[at];
            if (remembered == hash) {
                if (entries[at] instanceof Entry entry && entry.key.equals(key)) {
                    return entry.owner;
                }
            } else if (remembered == 0 && free < 0) {
                free = at;
            }
        }
        int owner = placement.applyAsInt(key);
        int at = free >= 0 ? free : first + ThreadLocalRandom.current().nextInt(WAYS);
        entries[at] = new Entry(key, owner);
        hashes[at] = hash;
        return owner;
    }

    // String.hashCode only chooses a set; the owner still comes from the strategy's fixed hash,
    // so replicas agree whatever this JVM's hashes are. The multiply spreads keys that differ
    // only in their last chars.
    private static int firstOfSet(int hash) {
        return ((hash * 0x9E3779B9) >>> (Integer.SIZE - SET_BITS)) * WAYS;
    }

    private record Entry(String key, int owner) {
    }
}
