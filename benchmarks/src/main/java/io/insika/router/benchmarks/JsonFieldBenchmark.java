package io.insika.router.benchmarks;

import java.nio.charset.StandardCharsets;
import java.util.Optional;
import java.util.concurrent.TimeUnit;

import io.insika.router.api.KeyExtractor;
import io.insika.router.api.PluginOptions;
import io.insika.router.strategies.extract.json.JsonFieldKeyExtractorProvider;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;

/**
 * {@code json-field} extraction of {@code user} from a Responses-style body, as the router runs it
 * with {@code body-max-bytes: 262144}. The last occurrence of a field wins, so every body is read to
 * the end of its JSON document or to the cap, wherever the key is: the cost follows the size read,
 * never more than the cap, and the figure that matters is how fast skipped JSON is scanned.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Fork(1)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
public class JsonFieldBenchmark {

    private static final int BODY_MAX_BYTES = 262_144;

    private KeyExtractor user;
    private InMemoryRequestView keyFirst1KiB;
    private InMemoryRequestView keyFirst256KiB;
    private InMemoryRequestView keyFirst1MiB;
    private InMemoryRequestView keyAbsent256KiB;

    @Setup
    public void setUp() {
        user = new JsonFieldKeyExtractorProvider().create(PluginOptions.of("field", "user"));
        keyFirst1KiB = request(body(true, 1024));
        keyFirst256KiB = request(body(true, BODY_MAX_BYTES));
        keyFirst1MiB = request(body(true, 4 * BODY_MAX_BYTES));
        keyAbsent256KiB = request(body(false, BODY_MAX_BYTES));
        if (user.extract(keyFirst256KiB).isEmpty() || user.extract(keyFirst1MiB).isEmpty()
                || user.extract(keyAbsent256KiB).isPresent()) {
            throw new IllegalStateException("benchmark bodies do not say what their names say");
        }
    }

    @Benchmark
    public Optional<String> keyFirstIn1KiB() {
        return user.extract(keyFirst1KiB);
    }

    @Benchmark
    public Optional<String> keyFirstIn256KiB() {
        return user.extract(keyFirst256KiB);
    }

    /** Read to the cap, not to the end: the key is the last occurrence within the first 256 KiB. */
    @Benchmark
    public Optional<String> keyFirstIn1MiB() {
        return user.extract(keyFirst1MiB);
    }

    @Benchmark
    public Optional<String> keyAbsentFrom256KiB() {
        return user.extract(keyAbsent256KiB);
    }

    private static InMemoryRequestView request(byte[] body) {
        return new InMemoryRequestView(body, BODY_MAX_BYTES);
    }

    // A body of exactly `size` bytes: the session key (or not), a few small fields, then a long
    // message of the kind that makes bodies big (pasted documents, base64 attachments).
    private static byte[] body(boolean withKey, int size) {
        String head = (withKey ? "{\"user\":\"session-7f3a9c2e41d8\"," : "{")
                + "\"model\":\"engine-large\",\"stream\":true,\"input\":[{\"role\":\"user\",\"content\":\"";
        String tail = "\"}],\"metadata\":{\"user\":\"nested-not-a-key\",\"attempt\":1}}";
        int filler = size - head.length() - tail.length();
        return (head + "lorem ipsum dolor sit amet ".repeat(filler / 27 + 1).substring(0, filler) + tail)
                .getBytes(StandardCharsets.US_ASCII);
    }
}
