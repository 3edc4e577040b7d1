package io.insika.router.server.proxy;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.NoSuchElementException;
import java.util.Random;
import java.util.TreeMap;

import io.helidon.http.Header;
import io.helidon.http.HeaderName;
import io.helidon.http.HeaderNames;
import io.helidon.http.HeaderValues;
import io.helidon.http.HttpMediaType;
import io.helidon.http.ServerRequestHeaders;
import io.helidon.http.WritableHeaders;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import static org.hamcrest.MatcherAssert.assertThat;
import static org.hamcrest.Matchers.contains;
import static org.hamcrest.Matchers.is;
import static org.junit.jupiter.api.Assertions.assertThrows;

/**
 * The lean path's fields answer every question the proxy and its extractors ask exactly as
 * Helidon's headers would for the same field lines, small heads and large, so that a request
 * means the same whichever path framed it.
 */
class LeanFieldsTest {

    // known names in several spellings, names of the router's own, and custom ones that differ only in case
    private static final List<String> NAMES = List.of("Host", "host", "HOST", "Content-Type", "content-type",
            "Accept", "accept", "Cookie", "X-Session", "x-session", "X-SESSION", "Forwarded", "X-Forwarded-For",
            "Connection", "User-Agent", "X-A", "x-b", "Via", "Mcp-Session-Id", "mcp-session-id");

    @Test
    void fieldsKeepTheOrderTheyCameInAndANameKeepsItsValuesInOrder() {
        LeanFields fields = new LeanFields();
        fields.add(HeaderNames.create("X-Z"), "1");
        fields.add(HeaderNames.HOST, "h");
        fields.add(HeaderNames.create("x-z"), "2");
        fields.add(HeaderNames.ACCEPT, "a");

        List<String> order = new ArrayList<>();
        fields.forEach(header -> order.add(header.name() + "=" + header.values()));
        assertThat(order, contains("X-Z=1, 2", "Host=h", "Accept=a"));
        assertThat(fields.size(), is(3));
        assertThat(fields.get(HeaderNames.create("X-z")).allValues(), contains("1", "2"));
    }

    @Test
    void anAbsentFieldIsAbsentEveryWayItIsAsked() {
        LeanFields fields = new LeanFields();
        fields.add(HeaderNames.HOST, "h");

        assertThat(fields.contains(HeaderNames.COOKIE), is(false));
        assertThat(fields.first(HeaderNames.create("X-Session")).isPresent(), is(false));
        assertThat(fields.all(HeaderNames.COOKIE, () -> List.of("default")), contains("default"));
        assertThrows(NoSuchElementException.class, () -> fields.get(HeaderNames.COOKIE));
        assertThat(fields.acceptedTypes().isEmpty(), is(true));
    }

    @Test
    void acceptedTypesAreOrderedAsHelidonOrdersThem() {
        List<Header> lines = List.of(HeaderValues.create(HeaderNames.ACCEPT, "text/plain;q=0.5"),
                HeaderValues.create(HeaderNames.ACCEPT, "application/json"),
                HeaderValues.create(HeaderNames.ACCEPT, "text/event-stream;q=0.9"));
        LeanFields fields = new LeanFields();
        lines.forEach(line -> fields.add(line.headerName(), line.get()));

        List<String> types = fields.acceptedTypes().stream().map(HttpMediaType::text).toList();
        assertThat(types, is(helidon(lines).acceptedTypes().stream().map(HttpMediaType::text).toList()));
        assertThat(types.getFirst(), is("application/json"));
    }

    @Test
    void cookiesAndContentLengthReadAsFromHelidonsHeaders() {
        LeanFields fields = new LeanFields();
        fields.add(HeaderNames.COOKIE, "a=1; sid=\"abc\"");
        fields.add(HeaderNames.CONTENT_LENGTH, "42");

        assertThat(fields.cookies().first("sid").get(), is(helidon(fields.stream().toList()).cookies().first("sid").get()));
        assertThat(fields.contentLength().getAsLong(), is(42L));
        assertThat(fields.contains(HeaderValues.create(HeaderNames.CONTENT_LENGTH, "42")), is(true));
        assertThat(fields.contains(HeaderValues.create(HeaderNames.CONTENT_LENGTH, "43")), is(false));
    }

    /**
     * Random heads, from a handful of fields to far past the point where lookups go through a map:
     * every name, in every spelling, gives what Helidon's headers give.
     */
    @ParameterizedTest
    @ValueSource(ints = {1, 3, LeanFields.INDEXED, LeanFields.INDEXED + 1, 40, 2_000})
    void everyLookupAgreesWithHelidonsHeaders(int lines) {
        Random random = new Random(lines);
        List<Header> received = new ArrayList<>();
        for (int i = 0; i < lines; i++) {
            String name = lines > 100 && random.nextBoolean() ? "X-Name-" + i : NAMES.get(random.nextInt(NAMES.size()));
            received.add(HeaderValues.create(HeaderNames.create(name), "v" + i));
        }
        LeanFields fields = new LeanFields();
        received.forEach(line -> fields.add(line.headerName(), line.get()));
        ServerRequestHeaders expected = helidon(received);

        assertThat(fields.size(), is(expected.size()));
        assertThat(byName(fields), is(byName(expected)));
        List<HeaderName> asked = new ArrayList<>();
        NAMES.forEach(name -> asked.add(HeaderNames.create(name)));
        received.forEach(line -> asked.add(HeaderNames.create(line.name().toUpperCase())));
        asked.add(HeaderNames.create("X-Never"));
        for (HeaderName name : asked) {
            assertThat(name.defaultCase(), fields.contains(name), is(expected.contains(name)));
            assertThat(name.defaultCase(), fields.all(name, List::of), is(expected.all(name, List::of)));
        }
    }

    private static ServerRequestHeaders helidon(List<Header> lines) {
        WritableHeaders<?> headers = WritableHeaders.create();
        lines.forEach(headers::add);
        return ServerRequestHeaders.create(headers);
    }

    private static Map<String, List<String>> byName(ServerRequestHeaders headers) {
        Map<String, List<String>> names = new TreeMap<>();
        headers.forEach(header -> names.put(header.headerName().lowerCase(), header.allValues()));
        return names;
    }
}
