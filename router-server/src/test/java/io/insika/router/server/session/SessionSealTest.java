package io.insika.router.server.session;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Optional;

import io.helidon.json.JsonObject;
import io.helidon.json.JsonParser;
import io.helidon.json.JsonValue;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import static org.hamcrest.MatcherAssert.assertThat;
import static org.hamcrest.Matchers.containsString;
import static org.hamcrest.Matchers.is;
import static org.junit.jupiter.api.Assertions.assertThrows;

/**
 * The session seal as docs/sessions.md defines it: the vectors in docs/ (made by an independent
 * implementation) are what the router seals and opens, and everything else is refused.
 */
class SessionSealTest {

    private static final Path VECTORS = Path.of("../docs/session-seal-vectors.json");
    private static final byte[] SECRET = "0123456789abcdef0123456789abcdef".getBytes(StandardCharsets.US_ASCII);

    private static JsonObject vectors() throws Exception {
        return JsonParser.create(Files.readString(VECTORS)).readJsonObject();
    }

    private static byte[] secret(JsonObject vectors, String name) {
        return vectors.stringValue(name).orElseThrow().getBytes(StandardCharsets.UTF_8);
    }

    @Test
    void sealsEveryVectorAsDocumentedAndOpensItBack() throws Exception {
        JsonObject vectors = vectors();
        SessionSeal seal = SessionSeal.of(secret(vectors, "secret"), Optional.empty());
        int count = 0;
        for (JsonValue value : vectors.arrayValue("sealed").orElseThrow().values()) {
            JsonObject vector = value.asObject();
            String owner = vector.stringValue("owner").orElseThrow();
            String original = vector.stringValue("original").orElseThrow();
            String sealed = vector.stringValue("sealed").orElseThrow();

            assertThat(owner, seal.seal(owner, original), is(sealed));
            assertThat(owner, seal.open(sealed), is(Optional.of(new SessionSeal.Opened(owner, original))));
            count++;
        }
        assertThat(count >= 6, is(true));
    }

    @Test
    void refusesEveryRejectedVectorEvenHoldingThePreviousSecretToo() throws Exception {
        JsonObject vectors = vectors();
        SessionSeal seal = SessionSeal.of(secret(vectors, "secret"), Optional.of(secret(vectors, "previous_secret")));
        int count = 0;
        for (JsonValue value : vectors.arrayValue("rejected").orElseThrow().values()) {
            JsonObject vector = value.asObject();
            assertThat(vector.stringValue("why").orElseThrow(), seal.open(vector.stringValue("value").orElseThrow()),
                    is(Optional.empty()));
            count++;
        }
        assertThat(count >= 12, is(true));
    }

    @Test
    void thePreviousSecretOpensWhatItSealedButNeverSeals() throws Exception {
        JsonObject vectors = vectors();
        JsonObject vector = vectors.arrayValue("opens_with_previous").orElseThrow().values().getFirst().asObject();
        String sealed = vector.stringValue("sealed").orElseThrow();
        SessionSeal rotated = SessionSeal.of(secret(vectors, "secret"), Optional.of(secret(vectors, "previous_secret")));
        SessionSeal current = SessionSeal.of(secret(vectors, "secret"), Optional.empty());

        assertThat(rotated.open(sealed).orElseThrow().original(), is(vector.stringValue("original").orElseThrow()));
        assertThat(current.open(sealed), is(Optional.empty()));
        assertThat(rotated.seal("127.0.0.1:9001", "session-1"), is(current.seal("127.0.0.1:9001", "session-1")));
    }

    @Test
    void anOriginalWithDotsRoundTripsWhole() {
        SessionSeal seal = SessionSeal.of(SECRET, Optional.empty());
        String sealed = seal.seal("b:1", "...a..b.");

        assertThat(seal.open(sealed).orElseThrow().original(), is("...a..b."));
    }

    @Test
    void resealingForAnotherOwnerIsRefused() {
        SessionSeal seal = SessionSeal.of(SECRET, Optional.empty());
        String[] mine = seal.seal("127.0.0.1:1", "S").split("\\.", 4);
        String[] theirs = seal.seal("127.0.0.1:2", "S").split("\\.", 4);

        assertThat(seal.open(mine[0] + "." + theirs[1] + "." + mine[2] + "." + mine[3]), is(Optional.empty()));
    }

    @Test
    void emptyOrUnsafeOriginalsAreNeverSealed() {
        SessionSeal seal = SessionSeal.of(SECRET, Optional.empty());

        for (String original : new String[] {"", "a b", "tab\t", "caf\u00e9", "line\r\n"}) {
            assertThrows(IllegalArgumentException.class, () -> seal.seal("b:1", original), original);
        }
    }

    @Test
    void anOriginalThatWouldSealPast1024CharactersIsNeverSealed() {
        SessionSeal seal = SessionSeal.of(SECRET, Optional.empty());
        int room = SessionSeal.MAX_SEALED_CHARS - seal.seal("b:1", "x").length() + 1;

        assertThat(seal.seal("b:1", "x".repeat(room)).length(), is(SessionSeal.MAX_SEALED_CHARS));
        assertThrows(IllegalArgumentException.class, () -> seal.seal("b:1", "x".repeat(room + 1)));
    }

    @Test
    void aSecretShorterThan32BytesIsRefusedWithWhatWouldDo() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> SessionSeal.of(new byte[31], Optional.empty()));

        assertThat(e.getMessage(), containsString("31 bytes (expected: at least 32"));
    }

    @Test
    void aSecretFileLosesOneTrailingLineEndAndNamesItselfWhenUnreadable(@TempDir Path dir) throws Exception {
        Path file = dir.resolve("secret");
        Files.write(file, "0123456789abcdef0123456789abcdef\r\n".getBytes(StandardCharsets.US_ASCII));

        assertThat(SessionSeal.read(file, Optional.empty()).toString(),
                is(SessionSeal.of(SECRET, Optional.empty()).toString()));
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> SessionSeal.read(dir.resolve("missing"), Optional.empty()));
        assertThat(e.getMessage(), containsString("missing] (expected: a readable file"));
    }

    @Test
    void withoutASecretNothingOpens() {
        assertThat(SessionSeal.NONE.isConfigured(), is(false));
        assertThat(SessionSeal.NONE.open(SessionSeal.of(SECRET, Optional.empty()).seal("b:1", "S")),
                is(Optional.empty()));
    }

    @Test
    void theDescriptionTellsSecretsApartAndRevealsNeither() {
        String one = SessionSeal.of(SECRET, Optional.empty()).toString();
        String two = SessionSeal.of("another secret, thirty-two bytes!".getBytes(StandardCharsets.US_ASCII),
                Optional.empty()).toString();

        assertThat(one.equals(two), is(false));
        assertThat(one.contains("0123"), is(false));
    }
}
