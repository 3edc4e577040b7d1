package io.insika.router.strategies.extract.json;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.Optional;

import io.insika.router.api.BodyPrefix;
import io.insika.router.api.KeyExtractor;
import io.insika.router.api.PluginOptions;
import io.insika.router.api.RequestView;
import io.insika.router.strategies.extract.TestRequests;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import static io.insika.router.strategies.extract.TestRequests.jsonBody;
import static org.hamcrest.MatcherAssert.assertThat;
import static org.hamcrest.Matchers.is;
import static org.hamcrest.Matchers.lessThanOrEqualTo;

/** Truncated, malformed, deep, huge and otherwise hostile bodies: never an exception, at most no key. */
class JsonFieldHostileBodyTest {

    private static final int CAP = TestRequests.DEFAULT_LIMIT;

    private final KeyExtractor user = new JsonFieldKeyExtractorProvider().create(PluginOptions.of("field", "user"));

    @Test
    void keyAfterALargeAttachmentWithinTheCapIsFound() {
        String body = "{\"attachment\":\"" + "QUJD".repeat(50_000) + "\",\"user\":\"alice\"}";
        assertThat(user.extract(limited(body, CAP).build()), is(Optional.of("alice")));
    }

    @Test
    void keyBeyondTheCapIsNoKeyAndNothingPastTheCapIsRead() {
        TestRequests request = limited("{\"attachment\":\"" + "QUJD".repeat(75_000) + "\",\"user\":\"alice\"}", CAP);

        assertThat(user.extract(request.build()), is(Optional.empty()));
        assertThat(request.bodyPrefix().pulled(), lessThanOrEqualTo(CAP));
    }

    @Test
    void keyBeforeTheCapIsFoundWhenTheBodyIsCutAfterIt() {
        assertThat(user.extract(limited("{\"user\":\"alice\",\"rest\":\"abcdefgh\"}", 24).build()),
                is(Optional.of("alice")));
    }

    // The client that repeats its key past the cap disagrees only with itself.
    @Test
    void laterOccurrencePastTheCapCannotBeSeen() {
        TestRequests request = limited("{\"user\":\"alice\",\"attachment\":\"" + "QUJD".repeat(75_000)
                + "\",\"user\":\"bob\"}", CAP);

        assertThat(user.extract(request.build()), is(Optional.of("alice")));
        assertThat(request.bodyPrefix().pulled(), lessThanOrEqualTo(CAP));
    }

    // A strict parser refuses such a body whole; Go's json.Decoder and Jackson's ObjectMapper take
    // the first document, as the router does. No parser takes a value from what follows.
    @ParameterizedTest
    @ValueSource(strings = {" x", "{\"user\":\"bob\"}", ",\"user\":\"bob\"}", "\n{\"user\":\"bob\"}\n"})
    void whateverFollowsTheDocumentIsNeverRead(String after) {
        assertThat(user.extract(jsonBody("{\"user\":\"alice\"}" + after)), is(Optional.of("alice")));
    }

    @Test
    void documentEndingWithinTheCapKeepsItsKeyWhenTheBodyGoesOnPastIt() {
        String body = "{\"user\":\"alice\"}" + " ".repeat(CAP) + "{\"user\":\"bob\"}";
        assertThat(user.extract(limited(body, CAP).build()), is(Optional.of("alice")));
    }

    @Test
    void stringValueCutByTheCapIsNoKey() {
        assertThat(user.extract(limited("{\"user\":\"alice-and-more\"}", 14).build()), is(Optional.empty()));
    }

    @Test
    void numberValueCutByTheCapIsNoKeyRatherThanAShorterNumber() {
        assertThat(user.extract(limited("{\"user\":12345}", 11).build()), is(Optional.empty()));
    }

    @ParameterizedTest
    @ValueSource(strings = {"not json", "<user>alice</user>", "{user:\"alice\"}", "{'user':'alice'}",
            "{\"user\" \"alice\"}", "{\"a\":,\"user\":\"alice\"}", "{\"user\":alice}", "{\"user\":tru}",
            "{\"user\":012}", "{\"user\":NaN}", "{\"user\":12abc}", "{\"user\":\"a\\qb\"}", "}{", "{"})
    void malformedJsonIsNoKey(String body) {
        assertThat(user.extract(jsonBody(body)), is(Optional.empty()));
    }

    @Test
    void brokenJsonAfterTheKeyIsNoKey() {
        assertThat(user.extract(jsonBody("{\"user\":\"alice\",,,]]] garbage")), is(Optional.empty()));
    }

    @ParameterizedTest
    @ValueSource(strings = {"[{\"user\":\"alice\"}]", "\"alice\"", "42", "null", "true"})
    void bodyThatIsNotAnObjectIsNoKey(String body) {
        assertThat(user.extract(jsonBody(body)), is(Optional.empty()));
    }

    @ParameterizedTest
    @ValueSource(strings = {"[", "{\"a\":"})
    void nestingTenThousandDeepIsNoKeyWithoutOverflowingTheStack(String opener) {
        String body = "{\"deep\":" + opener.repeat(10_000) + "1";
        assertThat(user.extract(jsonBody(body + ",\"user\":\"alice\"}")), is(Optional.empty()));
    }

    @Test
    void nestingWithinTheLimitIsSkipped() {
        int depth = JsonFieldKeyExtractor.MAX_NESTING_DEPTH - 2;
        String body = "{\"deep\":" + "[".repeat(depth) + "]".repeat(depth) + ",\"user\":\"alice\"}";
        assertThat(user.extract(jsonBody(body)), is(Optional.of("alice")));
    }

    @Test
    void nestingTooDeepAfterTheKeyIsNoKey() {
        int depth = JsonFieldKeyExtractor.MAX_NESTING_DEPTH + 1;
        String deep = "[".repeat(depth) + "]".repeat(depth);
        assertThat(user.extract(jsonBody("{\"user\":\"alice\",\"deep\":" + deep + "}")), is(Optional.empty()));
    }

    @Test
    void megabyteStringBeforeTheKeyIsSkipped() {
        String body = "{\"blob\":\"" + "x".repeat(1 << 20) + "\",\"user\":\"alice\"}";
        assertThat(user.extract(limited(body, 2 << 20).build()), is(Optional.of("alice")));
    }

    @Test
    void occurrenceTooLongForAKeyLeavesNoKeyEvenWhenALaterOneIsShort() {
        String body = "{\"user\":\"" + "x".repeat(JsonFieldKeyExtractor.MAX_KEY_LENGTH + 1) + "\",\"user\":\"alice\"}";
        assertThat(user.extract(jsonBody(body)), is(Optional.empty()));
    }

    @Test
    void megabyteStringAsTheValueIsNoKey() {
        String body = "{\"user\":\"" + "x".repeat(1 << 20) + "\"}";
        assertThat(user.extract(limited(body, 2 << 20).build()), is(Optional.empty()));
    }

    @Test
    void fieldNameLongerThanTheMaximumBeforeTheKeyIsNoKey() {
        String body = "{\"" + "n".repeat(JsonFieldKeyExtractor.MAX_KEY_LENGTH + 1) + "\":1,\"user\":\"alice\"}";
        assertThat(user.extract(jsonBody(body)), is(Optional.empty()));
    }

    @Test
    void numberLongerThanTheMaximumBeforeTheKeyIsNoKey() {
        String body = "{\"n\":" + "9".repeat(JsonFieldKeyExtractor.MAX_KEY_LENGTH + 1) + ",\"user\":\"alice\"}";
        assertThat(user.extract(jsonBody(body)), is(Optional.empty()));
    }

    @Test
    void invalidUtf8InTheValueIsNoKey() {
        assertThat(user.extract(bytes("{\"user\":\"al", 0xC3, 0x28, "ice\"}")), is(Optional.empty()));
    }

    @Test
    void invalidUtf8InAFieldNameBeforeTheKeyIsNoKey() {
        assertThat(user.extract(bytes("{\"n", 0xFF, 0xFE, "\":1,\"user\":\"alice\"}")), is(Optional.empty()));
    }

    @ParameterizedTest
    @ValueSource(strings = {"", " ", "\r\n\t "})
    void emptyOrWhitespaceBodyIsNoKey(String body) {
        assertThat(user.extract(jsonBody(body)), is(Optional.empty()));
    }

    @Test
    void byteOrderMarkAndWhitespaceBeforeTheObjectAreAccepted() {
        assertThat(user.extract(bytes("", 0xEF, 0xBB, 0xBF, " \n\t{ \"user\" : \"alice\" }")), is(Optional.of("alice")));
    }

    @Test
    void bodyStreamThatFailsIsNoKey() {
        BodyPrefix failing = new BodyPrefix() {
            @Override
            public InputStream open() {
                return new InputStream() {
                    @Override
                    public int read() throws IOException {
                        throw new IOException("client went away");
                    }
                };
            }

            @Override
            public int limit() {
                return CAP;
            }

            @Override
            public boolean exceedsLimit() {
                return false;
            }
        };
        assertThat(user.extract(TestRequests.request().body(failing).build()), is(Optional.empty()));
    }

    private static TestRequests limited(String body, int limit) {
        return TestRequests.request().body(body.getBytes(StandardCharsets.UTF_8), limit);
    }

    // Text and raw bytes in order: lets a test put bytes into a body that no String can hold.
    private static RequestView bytes(Object... parts) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        for (Object part : parts) {
            if (part instanceof String text) {
                out.writeBytes(text.getBytes(StandardCharsets.UTF_8));
            } else {
                out.write((Integer) part);
            }
        }
        return TestRequests.request().body(out.toByteArray(), CAP).build();
    }
}
