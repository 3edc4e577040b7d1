package io.insika.router.strategies.extract.json;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;
import java.util.stream.Stream;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import io.insika.router.api.KeyExtractor;
import io.insika.router.api.PluginOptions;
import io.insika.router.strategies.extract.TestRequests;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

import static org.hamcrest.MatcherAssert.assertThat;
import static org.hamcrest.Matchers.is;

/**
 * The cap's rule: of a body whose JSON goes on past {@code body-max-bytes}, the last occurrence
 * within the cap wins (a later one cannot be seen); an occurrence whose name is within the cap but
 * whose value the cap cuts gives no key; with no occurrence within the cap there is no key. A body
 * that ends before its document does is no key at all.
 */
class JsonFieldCapTest {

    /** Where the cap falls in a row's body; the body goes on past it. */
    private static final String CAP = "|";

    static Stream<Arguments> rows() {
        return Stream.of(
                row("the key first, the body on past the cap", "user",
                        "{\"user\":\"alice\",\"input\":[{\"role\":\"user\",\"content\":\"hel|lo\"}]}", "alice"),
                row("a duplicate within the cap, then the body past it: the last within the cap", "user",
                        "{\"user\":\"a\",\"model\":\"m\",\"user\":\"b\",\"input\":\"pa|d\"}", "b"),
                row("a later duplicate past the cap cannot be seen", "user",
                        "{\"user\":\"a\",\"input\":\"pa|d\",\"user\":\"b\"}", "a"),
                row("the key's value cut by the cap", "user", "{\"user\":\"ali|ce\"}", null),
                row("the last occurrence's value cut by the cap", "user", "{\"user\":\"a\",\"user\":\"b|ob\"}", null),
                row("the cap right after the wanted name", "user", "{\"user\":\"a\",\"user\"|:\"b\"}", null),
                row("the cap between the colon and the value", "user", "{\"user\":\"a\",\"user\":| \"b\"}", null),
                row("the cap right after a string key's closing quote", "user", "{\"user\":\"alice\"|}", "alice"),
                row("a number key the cap may have cut", "user", "{\"user\":123|4}", null),
                row("a number key that ends at the cap may go on past it", "user", "{\"user\":123|}", null),
                row("a number key ended before the cap", "user", "{\"user\":123,|\"n\":1}", "123"),
                row("a number key cut after its decimal point", "user", "{\"user\":1.|5}", null),
                row("a skipped number cut after its decimal point", "user", "{\"user\":\"a\",\"n\":1.|5}", "a"),
                row("a literal key cut by the cap", "user", "{\"user\":\"a\",\"user\":nu|ll}", null),
                row("a name cut by the cap cannot be seen", "user", "{\"user\":\"a\",\"us|er\":\"b\"}", "a"),
                row("a later null within the cap replaces the key", "user", "{\"user\":\"a\",\"user\":null,|\"x\":1}", null),
                row("no occurrence within the cap", "user", "{\"input\":\"pa|d\",\"user\":\"alice\"}", null),
                row("a nested field of the same name is no occurrence", "user",
                        "{\"meta\":{\"user\":\"x\",\"pad\":\"p|\"}}", null),
                row("the cap inside a nested value after the key", "user",
                        "{\"user\":\"a\",\"meta\":{\"user\":\"x\",\"n\":[1,{\"p\":\"|\"}]}}", "a"),
                row("malformed JSON within the cap", "user", "{\"user\":\"a\",,\"x\":\"|\"}", null),
                row("the document ends within the cap: what follows is never read", "user",
                        "{\"user\":\"a\"} |{\"user\":\"b\"}", "a"),
                row("pointer: the key, then the cap inside the same object", "/session/id",
                        "{\"session\":{\"id\":\"a\",\"x\":\"|\"}}", "a"),
                row("pointer: a later outer occurrence within the cap replaces the key", "/session/id",
                        "{\"session\":{\"id\":\"a\"},\"session\":{\"x\":\"|\",\"id\":\"b\"}}", null),
                row("pointer: a later outer name just before the cap replaces the key", "/session/id",
                        "{\"session\":{\"id\":\"a\"},\"session\"|:{}}", null),
                row("pointer: a later outer name cut by the cap cannot be seen", "/session/id",
                        "{\"session\":{\"id\":\"a\"},\"sess|ion\":{}}", "a"),
                row("pointer: the nested value cut by the cap", "/session/id", "{\"session\":{\"id\":\"a|b\"}}", null),
                row("pointer: an array element within the cap", "/items/1",
                        "{\"items\":[\"a\",\"b\",\"c|\"]}", "b"),
                row("pointer: the array cut before the element", "/items/1", "{\"items\":[\"a\",|\"b\"]}", null));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("rows")
    void theKeyOfABodyCutByTheCapIsTheLastOccurrenceReadWholeWithinIt(String why, KeyExtractor extractor,
            byte[] body, int cap, String key) {
        TestRequests request = TestRequests.request().body(body, cap);

        Optional<String> found = extractor.extract(request.build());

        assertThat(found, is(Optional.ofNullable(key)));
        assertThat("the body goes on past the cap", request.bodyPrefix().exceedsLimit(), is(true));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("rows")
    void aBodyThatEndsWhereTheCapWouldFallHasNoKeyUnlessItsDocumentEnded(String why, KeyExtractor extractor,
            byte[] body, int cap, String key) throws IOException {
        byte[] shortBody = Arrays.copyOf(body, cap);

        Optional<String> found = extractor.extract(TestRequests.request().body(shortBody, TestRequests.DEFAULT_LIMIT).build());

        boolean documentEnded = isJson(new JsonFactory(), new String(shortBody, StandardCharsets.UTF_8));
        assertThat(found, is(documentEnded ? Optional.ofNullable(key) : Optional.empty()));
    }

    // Every cut of one body, against a rule computed from where each occurrence's name and value
    // end: jackson runs out inside every kind of token, escape and UTF-8 sequence of the vector
    // table's bodies, which sit between the occurrences, and across its 8000-byte buffer.
    @Test
    void everyCutOfABodyGivesTheLastOccurrenceReadWholeWithinIt() throws IOException {
        SweptBody swept = SweptBody.build(validVectorBodies());
        KeyExtractor user = new JsonFieldKeyExtractorProvider().create(PluginOptions.of("field", "user"));
        List<String> wrong = new ArrayList<>();
        for (int cap = 0; cap < swept.bytes().length; cap++) {
            Optional<String> key = user.extract(TestRequests.request().body(swept.bytes(), cap).build());
            if (!key.equals(swept.keyCutAt(cap))) {
                wrong.add("cut at " + cap + " gives " + key + ", expected " + swept.keyCutAt(cap));
            }
        }
        assertThat(wrong.size() + " of " + swept.bytes().length + " cuts, first " + wrong.stream().limit(5).toList(),
                wrong.size(), is(0));
    }

    private static List<String> validVectorBodies() throws IOException {
        JsonFactory json = new JsonFactory();
        List<String> bodies = new ArrayList<>();
        try (JsonParser table = json.createParser(Path.of("src/test/resources/json-key-vectors.json").toFile())) {
            for (JsonToken token = table.nextToken(); token != null; token = table.nextToken()) {
                if (token == JsonToken.VALUE_STRING && "body".equals(table.currentName()) && isJson(json, table.getText())) {
                    bodies.add(table.getText());
                }
            }
        }
        assertThat(bodies.size() > 60, is(true));
        return bodies;
    }

    private static boolean isJson(JsonFactory json, String text) {
        try (JsonParser parser = json.createParser(text)) {
            parser.nextToken();
            parser.skipChildren();
            return parser.currentToken() != null && parser.nextToken() == null;
        } catch (IOException malformed) {
            return false;
        }
    }

    // A row: the body with CAP where the cap falls, and a field name or (starting with /) a pointer.
    private static Arguments row(String why, String fieldOrPointer, String marked, String key) {
        int at = marked.indexOf(CAP);
        byte[] body = (marked.substring(0, at) + marked.substring(at + 1)).getBytes(StandardCharsets.UTF_8);
        int cap = marked.substring(0, at).getBytes(StandardCharsets.UTF_8).length;
        PluginOptions options = fieldOrPointer.startsWith("/")
                ? PluginOptions.of("pointer", fieldOrPointer) : PluginOptions.of("field", fieldOrPointer);
        return Arguments.of(why, new JsonFieldKeyExtractorProvider().create(options), body, cap, key);
    }
}
