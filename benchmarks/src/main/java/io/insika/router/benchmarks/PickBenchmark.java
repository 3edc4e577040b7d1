package io.insika.router.benchmarks;

import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Random;
import java.util.ServiceLoader;
import java.util.UUID;
import java.util.concurrent.TimeUnit;

import io.insika.router.api.Backend;
import io.insika.router.api.Picker;
import io.insika.router.api.PluginOptions;
import io.insika.router.api.RouteStrategyProvider;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;

/**
 * Time of one {@link Picker#pick} per strategy and backend count, equal weights, the picker
 * found by name through {@link ServiceLoader} as the router finds it. Keys are UUID-shaped
 * session ids, so the cost of hashing the key is included.
 *
 * <p>{@code pick} is the warm case: 4096 live sessions taken in turn from a precomputed array,
 * every one repeated. {@code warmCopyPick} is the same sessions as the router sees them: each
 * request's key is a new {@code String} (extracted from its request), so its hash is computed
 * and a remembered key is compared char by char; {@code warmCopy} is the copy alone, to
 * subtract. {@code coldPick} is the first request of a session: every key is new, made fresh
 * as an extracted key is (its {@code String} hash not yet computed); {@code freshKey} is the
 * making alone, to subtract.
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Warmup(iterations = 5, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(1)
public class PickBenchmark {

    private static final int KEY_COUNT = 1 << 12;
    private static final byte[] HEX = "0123456789abcdef".getBytes(StandardCharsets.ISO_8859_1);

    @Param({"ketama", "rendezvous", "round-robin"})
    public String strategy;

    @Param({"3", "10", "100", "1000"})
    public int backends;

    private final MessageDigest md5 = md5();
    private Picker picker;
    private String[] keys;
    private byte[][] keyBytes;
    private int next;
    private byte[] coldKey;
    private long coldCount;

    private static MessageDigest md5() {
        try {
            return MessageDigest.getInstance("MD5");
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }

    @Setup
    public void setUp() {
        RouteStrategyProvider provider = ServiceLoader.load(RouteStrategyProvider.class).stream()
                .map(ServiceLoader.Provider::get)
                .filter(p -> p.name().equals(strategy))
                .findFirst()
                .orElseThrow(() -> new IllegalStateException("no strategy named " + strategy));
        List<Backend> list = new ArrayList<>();
        for (int i = 0; i < backends; i++) {
            list.add(Backend.of(URI.create("http://10.0." + (i / 250) + "." + (1 + i % 250) + ":8080")));
        }
        picker = provider.create(PluginOptions.empty()).picker(list);
        Random random = new Random(42);
        keys = new String[KEY_COUNT];
        for (int i = 0; i < KEY_COUNT; i++) {
            keys[i] = new UUID(random.nextLong(), random.nextLong()).toString();
        }
        keyBytes = new byte[KEY_COUNT][];
        for (int i = 0; i < KEY_COUNT; i++) {
            keyBytes[i] = keys[i].getBytes(StandardCharsets.ISO_8859_1);
        }
        coldKey = new UUID(random.nextLong(), random.nextLong()).toString().getBytes(StandardCharsets.ISO_8859_1);
        coldCount = random.nextLong() >>> 16;
    }

    @Benchmark
    public Optional<Backend> pick() {
        next = (next + 1) & (KEY_COUNT - 1);
        return picker.pick(keys[next]);
    }

    @Benchmark
    public Optional<Backend> warmCopyPick() {
        return picker.pick(warmCopy());
    }

    /** A live session's key as a new String, as each of its requests brings it. */
    @Benchmark
    public String warmCopy() {
        next = (next + 1) & (KEY_COUNT - 1);
        return new String(keyBytes[next], StandardCharsets.ISO_8859_1);
    }

    @Benchmark
    public Optional<Backend> coldPick() {
        return picker.pick(freshKey());
    }

    /** A UUID-shaped key not made before: a counter in its last 12 hex digits, distinct for 2^48 calls. */
    @Benchmark
    public String freshKey() {
        long count = coldCount++;
        for (int i = coldKey.length - 1; i >= coldKey.length - 12; i--) {
            coldKey[i] = HEX[(int) (count & 0xF)];
            count >>>= 4;
        }
        return new String(coldKey, StandardCharsets.ISO_8859_1);
    }

    /**
     * The part of a ketama pick that libketama compatibility fixes: MD5 of the key's UTF-8 bytes,
     * done as the picker does it. {@code pick} minus this is the ring lookup. The same for every
     * strategy and N; run it with {@code -p strategy=ketama -p backends=3}.
     */
    @Benchmark
    public byte[] md5OfKey() throws CloneNotSupportedException {
        next = (next + 1) & (KEY_COUNT - 1);
        return ((MessageDigest) md5.clone()).digest(keys[next].getBytes(StandardCharsets.UTF_8));
    }
}
