package io.insika.router.strategies.placement;

import java.util.function.ToIntFunction;

/**
 * The owners of recently placed keys, so that a session's later requests skip the key hash
 * (ketama's MD5, rendezvous' score of every backend).
 *
 * <p>A direct-mapped table of 8192 slots, each holding one key and the owner (index in id
 * order) the placement gave it; a key whose slot holds another key is placed again and takes
 * the slot. The answer is always the placement's own: a memo belongs to one picker, whose
 * backends never change, so an entry cannot go stale. Only keys of up to 64 chars are kept,
 * so a flood of long distinct keys cannot grow it: at most about 1.5 MiB per picker (8192
 * keys of 64 UTF-16 chars with their entries), about 0.85 MiB with UUID-shaped keys.
 *
 * <p>Not a Caffeine cache (which this module does not depend on): a hash-map lookup plus the
 * read bookkeeping of its eviction policy, on every request, would eat much of what it saves,
 * while a hit here is a hash, one array read and one {@code equals}, and nothing allocated.
 */
public final class OwnerMemo {

    /** Longer keys are placed on every request and never kept. */
    public static final int MAX_KEY_LENGTH = 64;

    private static final int SLOT_BITS = 13;

    private final ToIntFunction<String> placement;
    // Threads read and replace slots without locks. An entry's fields are final, so whoever
    // sees an entry sees its key and owner whole (JLS 17.5), and a lost write only costs a later
    // placement: the picker stays immutable in what it answers, and thread-safe.
    private final Entry[] slots = new Entry[1 << SLOT_BITS];

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
        int slot = slotOf(key);
        Entry entry = slots[slot];
        if (entry != null && entry.key.equals(key)) {
            return entry.owner;
        }
        int owner = placement.applyAsInt(key);
        slots[slot] = new Entry(key, owner);
        return owner;
    }

    // String.hashCode only chooses a slot; the owner still comes from the strategy's fixed
    // hash, so replicas agree whatever this JVM's hashes are. The multiply spreads keys that
    // differ only in their last chars.
    private static int slotOf(String key) {
        return (key.hashCode() * 0x9E3779B9) >>> (Integer.SIZE - SLOT_BITS);
    }

    private record Entry(String key, int owner) {
    }
}
