package io.insika.router.strategies.ketama;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;

import io.insika.router.strategies.placement.BackendSet;

/**
 * libketama's continuum: every backend's points on the 32-bit circle, sorted, and the backend
 * owning each point. A pure function of the backends' ids, weights and the weighting, so every
 * replica builds the same ring.
 *
 * <p>Points are stored with the sign bit flipped so that Java's signed int comparison orders
 * them as the unsigned numbers libketama compares.
 */
final class KetamaRing {

    /** Caps the arrays at 128 MiB: 2^24 points, a total weight of 104857 in the default mode. */
    static final long MAX_POINTS = 1L << 24;

    private final int[] flippedPoints;
    private final int[] owners;

    private KetamaRing(int[] flippedPoints, int[] owners) {
        this.flippedPoints = flippedPoints;
        this.owners = owners;
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
        // (flipped point, backend index) packed in a long sorts by point, then by id order.
        long[] packed = new long[(int) total];
        int next = 0;
        for (int backend = 0; backend < digests.length; backend++) {
            String prefix = backends.get(backend).id() + "-";
            for (long k = 0; k < digests[backend]; k++) {
                for (int word : Md5.digestWords((prefix + k).getBytes(StandardCharsets.UTF_8))) {
                    packed[next++] = ((long) (word ^ Integer.MIN_VALUE) << 32) | backend;
                }
            }
        }
        Arrays.sort(packed);
        int[] points = new int[packed.length];
        int[] owners = new int[packed.length];
        for (int i = 0; i < packed.length; i++) {
            points[i] = (int) (packed[i] >> 32);
            owners[i] = (int) packed[i];
        }
        return new KetamaRing(points, owners);
    }

    /** libketama's {@code ketama_hashi}: MD5 of the key's UTF-8 bytes, bytes 0..3 little-endian. */
    static int keyHash(String key) {
        return Md5.firstWord(key.getBytes(StandardCharsets.UTF_8));
    }

    /** Position of the first point at or after the hash, wrapping past the last point to 0. */
    int pointIndex(int hash) {
        int target = hash ^ Integer.MIN_VALUE;
        int low = 0;
        int high = flippedPoints.length;
        while (low < high) {
            int mid = (low + high) >>> 1;
            if (flippedPoints[mid] < target) {
                low = mid + 1;
            } else {
                high = mid;
            }
        }
        return low == flippedPoints.length ? 0 : low;
    }

    /** The backend (index in id order) owning the key hash. */
    int ownerOf(int hash) {
        return owners[pointIndex(hash)];
    }

    /** The point's value, as libketama prints it (unsigned). */
    long point(int index) {
        return Integer.toUnsignedLong(flippedPoints[index] ^ Integer.MIN_VALUE);
    }

    /** The backend (index in id order) owning a point. */
    int owner(int index) {
        return owners[index];
    }

    int size() {
        return flippedPoints.length;
    }
}
