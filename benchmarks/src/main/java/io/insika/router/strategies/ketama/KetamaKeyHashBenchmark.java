package io.insika.router.strategies.ketama;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.concurrent.TimeUnit;

import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;

/**
 * Why ketama hashes keys with its own unrolled {@link OneBlockMd5}: the ways to get libketama's
 * key hash (MD5 of a 36-byte session id, first four bytes little-endian) side by side: the
 * unrolled one-block path the picker takes, the general block loop, and the JDK's digest cloned
 * from a prototype or made fresh. Lives in the
 * ketama package to reach the package-private class.
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Warmup(iterations = 5, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(1)
public class KetamaKeyHashBenchmark {

    private final String key = "8c2d5f0e-7b1a-4c3d-9e8f-0a1b2c3d4e5f";
    private final MessageDigest prototype = newMd5();

    @Benchmark
    public int ownMd5() {
        return KetamaRing.keyHash(key);
    }

    @Benchmark
    public int ownMd5BlockLoop() {
        return Md5.digestWords(key.getBytes(StandardCharsets.UTF_8))[0];
    }

    @Benchmark
    public int clonedMessageDigest() throws CloneNotSupportedException {
        MessageDigest digest = (MessageDigest) prototype.clone();
        return firstWord(digest.digest(key.getBytes(StandardCharsets.UTF_8)));
    }

    @Benchmark
    public int newMessageDigest() {
        return firstWord(newMd5().digest(key.getBytes(StandardCharsets.UTF_8)));
    }

    private static int firstWord(byte[] digest) {
        return ByteBuffer.wrap(digest).order(ByteOrder.LITTLE_ENDIAN).getInt(0);
    }

    private static MessageDigest newMd5() {
        try {
            return MessageDigest.getInstance("MD5");
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("every JDK has MD5", e);
        }
    }
}
