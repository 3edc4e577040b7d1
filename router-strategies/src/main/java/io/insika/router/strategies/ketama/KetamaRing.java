package io.insika.router.strategies.ketama;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;

import io.insika.router.strategies.placement.BackendSet;

/**
 * libketama's continuum: every backend's points on the 32-bit circle, sorted, and the backend
 * owning each point. A pure function of the backends' ids, weights and the weighting, so every
 * replica builds the same ring.
 *
 * <p>Each entry packs a point (sign bit flipped, so signed order is libketama's unsigned order)
 * above its owner's index, so one cache line answers both. A table indexed by the hash's top
 * bits says where each slice of the circle starts: a lookup reads the table and a couple of
 * entries instead of walking a binary search through a ring of 160 points per backend, which at
 * a thousand backends is a cache miss per step.
 */
final class KetamaRing {

    /** Caps the ring at 128 MiB: 2^24 points, a total weight of 104857 in the default mode. */
    static final long MAX_POINTS = 1L << 24;

    private static final int MAX_SLICE_BITS = 16;

    private final long[] entries;
    private final int sliceShift;
    private final int[] sliceStarts;

    private KetamaRing(long[] entries) {
        this.entries = entries;
        // About one to two points per slice, at most 2^16 slices (a 256 KiB table).
        int bits = entries.length < 2 ? 1 : Math.min(MAX_SLICE_BITS, 31 - Integer.numberOfLeadingZeros(entries.length));
        this.sliceShift = 32 - bits;
        this.sliceStarts = new int[(1 << bits) + 1];
        int next = 0;
        for (int slice = 0; slice < 1 << bits; slice++) {
            sliceStarts[slice] = next;
            while (next < entries.length && (int) (point(next) >>> sliceShift) == slice) {
                next++;
            }
        }
        sliceStarts[1 << bits] = entries.length;
    }

    /**
     * Digest k of a backend is MD5 of {@code "<id>-<k>"} (k in decimal); its four little-endian
     * words are four points. Equal points of different backends are ordered by backend id.
     */
    static KetamaRing build(BackendSet backends, KetamaWeighting weighting) {
        long[] digests = weighting.digestsPerBackend(backends);
        long total = 4 * Arrays.stream(digests).sum();
        if (total > MAX_POINTS) {
            throw new IllegalArgumentException("ketama: [" + total + " points] for " + backends.size()
                    + " backends (expected: at most " + MAX_POINTS + "; lower the weights)");
        }
        // Sorting (flipped point, backend index) orders by point, then by backend id.
        long[] entries = new long[(int) total];
        int next = 0;
        for (int backend = 0; backend < digests.length; backend++) {
            String prefix = backends.get(backend).id() + "-";
            for (long k = 0; k < digests[backend]; k++) {
                for (int word : Md5.digestWords((prefix + k).getBytes(StandardCharsets.UTF_8))) {
                    entries[next++] = ((long) (word ^ Integer.MIN_VALUE) << 32) | backend;
                }
            }
        }
        Arrays.sort(entries);
        return new KetamaRing(entries);
    }

    /** libketama's {@code ketama_hashi}: MD5 of the key's UTF-8 bytes, bytes 0..3 little-endian. */
    static int keyHash(String key) {
        return Md5.firstWord(key.getBytes(StandardCharsets.UTF_8));
    }

    /** Position of the first point at or after the hash, wrapping past the last point to 0. */
    int pointIndex(int hash) {
        int slice = sliceOf(hash);
        // Points of earlier slices are all below the hash and those of later ones above it, so
        // the answer lies in this slice or is the first point after it.
        int low = sliceStarts[slice];
        int high = sliceStarts[slice + 1];
        int target = hash ^ Integer.MIN_VALUE;
        while (low < high) {
            int mid = (low + high) >>> 1;
            if ((int) (entries[mid] >> 32) < target) {
                low = mid + 1;
            } else {
                high = mid;
            }
        }
        return low == entries.length ? 0 : low;
    }

    /** The backend (index in id order) owning the key hash. */
    int ownerOf(int hash) {
        return owner(pointIndex(hash));
    }

    /** The point's value, as libketama prints it (unsigned). */
    long point(int index) {
        return Integer.toUnsignedLong((int) (entries[index] >> 32) ^ Integer.MIN_VALUE);
    }

    /** The backend (index in id order) owning a point. */
    int owner(int index) {
        return (int) entries[index];
    }

    int size() {
        return entries.length;
    }

    private int sliceOf(int hash) {
        return hash >>> sliceShift;
    }
}
