package io.insika.router.strategies.rendezvous;

import java.nio.charset.StandardCharsets;

import com.dynatrace.hash4j.hashing.Hasher64;
import com.dynatrace.hash4j.hashing.Hashing;

/**
 * The fixed hash behind rendezvous placement; docs/strategies.md gives the same definition for
 * tools outside the router.
 *
 * <ul>
 *   <li>{@code keyHash = xxHash64(utf8(key), seed 0)}, once per request;</li>
 *   <li>{@code idHash = xxHash64(utf8(backend id), seed 0)}, once per picker;</li>
 *   <li>{@code mixed = fmix64(keyHash ^ idHash)}, MurmurHash3's 64-bit finalizer, because
 *       the xor alone ranks backends by the top bits of their id hashes, so a few of them
 *       would win nearly every key;</li>
 *   <li>{@code h = ((mixed >>> 11) + 0.5) * 2^-53}, in the open interval (0, 1);</li>
 *   <li>{@code score = -weight / ln(h)}; the highest score wins, then the larger
 *       {@code mixed >>> 11}, then the smaller backend id.</li>
 * </ul>
 */
final class RendezvousHash {

    private static final Hasher64 XX = Hashing.xxh64(0);

    private RendezvousHash() {
    }

    static long of(String text) {
        return XX.hashBytesToLong(text.getBytes(StandardCharsets.UTF_8));
    }

    /** MurmurHash3 fmix64 of the pair: a bijection in which every input bit flips every output bit half the time. */
    static long mix(long keyHash, long idHash) {
        long k = keyHash ^ idHash;
        k ^= k >>> 33;
        k *= 0xff51afd7ed558ccdL;
        k ^= k >>> 33;
        k *= 0xc4ceb9fe1a85ec53L;
        k ^= k >>> 33;
        return k;
    }

    /** The 53 bits of {@code h}'s numerator: h grows with them, so they rank equal weights. */
    static long rank(long mixed) {
        return mixed >>> 11;
    }

    /** {@code h}, strictly inside (0, 1), so its logarithm is finite and negative. */
    static double unit(long mixed) {
        return (rank(mixed) + 0.5) * 0x1.0p-53;
    }

    /** {@code -weight / ln(h)}; StrictMath so that every JVM computes the same bits. */
    static double score(int weight, long mixed) {
        return -weight / StrictMath.log(unit(mixed));
    }
}
