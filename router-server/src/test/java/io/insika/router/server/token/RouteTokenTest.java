package io.insika.router.server.token;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.concurrent.TimeUnit;

import io.helidon.json.JsonObject;
import io.helidon.json.JsonParser;
import io.helidon.json.JsonValue;
import io.insika.router.server.testing.PeerProgram;
import org.junit.jupiter.api.Test;

import static org.hamcrest.MatcherAssert.assertThat;
import static org.hamcrest.Matchers.empty;
import static org.hamcrest.Matchers.is;
import static org.junit.jupiter.api.Assertions.assertThrows;

/**
 * The route token is a published format: the Java definition, the JavaScript and Python
 * references in clients/ and the vectors in docs/ must all agree.
 */
class RouteTokenTest {

    private static final Path VECTORS = Path.of("../docs/route-token-vectors.json");

    @Test
    void theJavaTokensAreTheDocumentedVectors() throws IOException {
        JsonObject vectors = JsonParser.create(Files.readString(VECTORS)).readJsonObject();
        byte[] secret = vectors.stringValue("secret").orElseThrow().getBytes(StandardCharsets.UTF_8);
        List<String> mismatches = new ArrayList<>();
        for (JsonValue value : vectors.arrayValue("vectors").orElseThrow().values()) {
            JsonObject vector = value.asObject();
            String key = vector.stringValue("key").orElseThrow();
            if (!RouteToken.hash(key).equals(vector.stringValue("hash").orElseThrow())) {
                mismatches.add("hash of " + key);
            }
            if (!RouteToken.hmac(secret, key).equals(vector.stringValue("hmac").orElseThrow())) {
                mismatches.add("hmac of " + key);
            }
        }
        assertThat(mismatches, empty());
        assertThat(vectors.arrayValue("vectors").orElseThrow().size() >= 10, is(true));
    }

    @Test
    void theJavaScriptReferenceComputesTheSameVectors() throws Exception {
        assertThat(run("node", "../clients/js/route-token.mjs", "--check", VECTORS.toString()), is("10 vectors, 0 mismatches"));
    }

    @Test
    void thePythonReferenceComputesTheSameVectors() throws Exception {
        assertThat(run("python3", "../clients/python/route_token.py", "--check", VECTORS.toString()),
                is("10 vectors, 0 mismatches"));
    }

    @Test
    void theReferencesAgreeWithJavaOnKeysNoVectorNames() throws Exception {
        Random random = new Random(4);
        for (int i = 0; i < 5; i++) {
            String key = randomKey(random);
            assertThat(key, run("node", "../clients/js/route-token.mjs", key), is(RouteToken.hash(key)));
            assertThat(key, run("python3", "../clients/python/route_token.py", key), is(RouteToken.hash(key)));
        }
    }

    @Test
    void everyTokenIsTwentyFourUrlSafeCharactersWithItsFormsPrefix() {
        Random random = new Random(7);
        byte[] secret = "0123456789abcdef".getBytes(StandardCharsets.US_ASCII);
        for (int i = 0; i < 1000; i++) {
            String key = randomKey(random);
            assertThat(RouteToken.hash(key).matches("h1[A-Za-z0-9_-]{22}"), is(true));
            assertThat(RouteToken.hmac(secret, key).matches("k1[A-Za-z0-9_-]{22}"), is(true));
        }
    }

    @Test
    void aKeyThatIsNotUnicodeAndAShortSecretAreRefused() {
        assertThat(assertThrows(IllegalArgumentException.class, () -> RouteToken.hash("a\uD800b")).getMessage(),
                is("key: not valid Unicode (a lone surrogate)"));
        assertThat(assertThrows(IllegalArgumentException.class,
                () -> RouteToken.hmac(new byte[15], "alice")).getMessage(), is("secret: 15 bytes (expected: at least 16)"));
    }

    // Printable keys of every script, astral ones included, as a client would send them
    private static String randomKey(Random random) {
        StringBuilder key = new StringBuilder();
        int length = 1 + random.nextInt(40);
        while (key.length() < length) {
            int codePoint = switch (random.nextInt(3)) {
                case 0 -> 0x21 + random.nextInt(0x5e);
                case 1 -> 0xa1 + random.nextInt(0x3000);
                default -> 0x1f300 + random.nextInt(0x300);
            };
            if (Character.isDefined(codePoint) && !Character.isISOControl(codePoint)) {
                key.appendCodePoint(codePoint);
            }
        }
        return key.toString();
    }

    private static String run(String... command) throws Exception {
        Process process = PeerProgram.start(new ProcessBuilder(command).redirectErrorStream(true));
        String output = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8).strip();
        assertThat(String.join(" ", command) + ": " + output, process.waitFor(30, TimeUnit.SECONDS), is(true));
        assertThat(output, process.exitValue(), is(0));
        return output;
    }
}
