package io.insika.router.strategies.extract.json;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.Optional;
import java.util.Random;

import io.insika.router.api.KeyExtractor;
import io.insika.router.api.PluginOptions;
import io.insika.router.strategies.extract.TestRequests;
import org.junit.jupiter.api.Test;

import static org.hamcrest.MatcherAssert.assertThat;
import static org.hamcrest.Matchers.is;
import static org.hamcrest.Matchers.lessThanOrEqualTo;

/** Property: whatever bytes arrive, extraction returns normally with no key or a plausible one. */
class JsonFieldFuzzTest {

    private static final byte[] SEED = ("{\"model\":\"m\",\"input\":[{\"role\":\"user\",\"content\":\"hi \\u00e9\"}],"
            + "\"meta\":{\"user\":\"x\",\"n\":[1,2.5e3,true,null]},\"user\":\"alice\",\"stream\":true}")
            .getBytes(StandardCharsets.UTF_8);
    private static final byte[] ALPHABET = "{}[]\":,\\ 0123456789eE+-.truefalsnul\u00ff".getBytes(StandardCharsets.ISO_8859_1);

    private final KeyExtractor user = new JsonFieldKeyExtractorProvider().create(PluginOptions.of("field", "user"));
    private final KeyExtractor pointer = new JsonFieldKeyExtractorProvider().create(PluginOptions.of("pointer", "/input/0/role"));

    @Test
    void mutatedBodiesNeverThrowAndYieldOnlyPlausibleKeys() {
        Random random = new Random(20240601L);
        for (int round = 0; round < 20_000; round++) {
            byte[] body = mutate(random);
            int limit = 1 + random.nextInt(body.length + 8);
            for (KeyExtractor extractor : new KeyExtractor[] {user, pointer}) {
                Optional<String> key = extractor.extract(TestRequests.request().body(body, limit).build());
                key.ifPresent(JsonFieldFuzzTest::assertPlausible);
            }
        }
    }

    @Test
    void randomBytesNeverThrowAndCarryNoKey() {
        Random random = new Random(7L);
        for (int round = 0; round < 5_000; round++) {
            byte[] body = new byte[random.nextInt(512)];
            random.nextBytes(body);
            assertThat(user.extract(TestRequests.request().body(body, body.length).build()), is(Optional.empty()));
        }
    }

    private static byte[] mutate(Random random) {
        byte[] body = Arrays.copyOf(SEED, SEED.length);
        int edits = 1 + random.nextInt(4);
        for (int i = 0; i < edits; i++) {
            body[random.nextInt(body.length)] = ALPHABET[random.nextInt(ALPHABET.length)];
        }
        return body;
    }

    private static void assertPlausible(String key) {
        assertThat(key.isBlank(), is(false));
        assertThat(key.length(), lessThanOrEqualTo(JsonFieldKeyExtractor.MAX_KEY_LENGTH));
    }
}
