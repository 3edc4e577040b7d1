package io.insika.router.strategies.placement;

import java.util.function.ToIntFunction;

/**
 * The owners of recently placed keys, so that a session's later requests skip the key hash
 * (ketama's MD5, rendezvous' score of every backend).
 *
 * <p>8192 entries of a key and the owner (index in id order) the placement gave it, in sets of
 * two: a key has one set, chosen by its {@code String} hash; a key found in neither entry is
 * placed again and becomes the set's first, the old first its second. The answer is always the
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

    private static final int SET_BITS = 12;

    private final ToIntFunction<String> placement;
    // Threads read and replace entries without locks. An entry's fields are final, so whoever
    // sees an entry sees its key and owner whole (JLS 17.5); a torn or lost update only costs a
    // later placement: the picker stays immutable in what it answers, and thread-safe.
    private final Entry[] entries = new Entry[2 << SET_BITS];
    // Each entry's key hash, beside the entries: a key that is not there is told by one read
    // here instead of following an entry, its key and the key's bytes through cold memory.
    // Only a hint: a found entry's key is always compared.
    private final int[] hashes = new int[2 << SET_BITS];

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
        for (int at = first; at < first + 2; at++) {
            if (hashes[at] == hash && entries[at] instanceof Entry entry && entry.key.equals(key)) {
                return entry.owner;
            }
        }
        int owner = placement.applyAsInt(key);
        entries[first + 1] = entries[first];
        hashes[first + 1] = hashes[first];
        entries[first] = new Entry(key, owner);
        hashes[first] = hash;
        return owner;
    }

    // String.hashCode only chooses a set; the owner still comes from the strategy's fixed hash,
    // so replicas agree whatever this JVM's hashes are. The multiply spreads keys that differ
    // only in their last chars.
    private static int firstOfSet(int hash) {
        return ((hash * 0x9E3779B9) >>> (Integer.SIZE - SET_BITS)) << 1;
    }

    private record Entry(String key, int owner) {
    }
}
