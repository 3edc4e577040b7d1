package io.insika.router.server.proxy;

import java.nio.charset.StandardCharsets;
import java.util.stream.Stream;

import io.helidon.http.HeaderNames;
import io.helidon.http.Method;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

import static org.hamcrest.MatcherAssert.assertThat;
import static org.hamcrest.Matchers.contains;
import static org.hamcrest.Matchers.is;
import static org.hamcrest.Matchers.notNullValue;
import static org.hamcrest.Matchers.nullValue;

/**
 * The lean connection frames only heads that are certainly valid, and hands every other to
 * Helidon's parser: a head it takes must mean exactly what Helidon would have read, and one it
 * is unsure of must be left alone, never refused or guessed at.
 */
class LeanHeadTest {

    private static LeanHead parse(String head) {
        byte[] bytes = head.getBytes(StandardCharsets.ISO_8859_1);
        return LeanHead.parse(bytes, bytes.length, "/up", () -> "127.0.0.1:9090");
    }

    @Test
    void aPlainKeyedPostIsReadAsHelidonReadsIt() {
        LeanHead head = parse("POST /v1/responses?a=b%20c HTTP/1.1\r\nHost: router.test:9090\r\n"
                + "Content-Type:application/json\r\nContent-Length: 42\r\nX-Pad: \t two words \t\r\n\r\n");

        assertThat(head, notNullValue());
        assertThat(head.prologue().method(), is(Method.POST));
        assertThat(head.prologue().uriPath().rawPath(), is("/v1/responses"));
        assertThat(head.prologue().query().rawValue(), is("a=b%20c"));
        assertThat(head.headers().get(HeaderNames.HOST).get(), is("router.test:9090"));
        assertThat(head.headers().get(HeaderNames.CONTENT_TYPE).get(), is("application/json"));
        assertThat("optional whitespace around a value is not part of it",
                head.headers().get(HeaderNames.create("X-Pad")).get(), is("two words"));
        assertThat(head.contentLength(), is(42L));
        assertThat(head.close(), is(false));
    }

    @Test
    void fieldsKeepTheirOrderAndRepeats() {
        LeanHead head = parse("GET /a HTTP/1.1\r\nHost: h\r\nAccept: a\r\nAccept: b\r\n\r\n");
        assertThat(head.headers().get(HeaderNames.ACCEPT).allValues(), contains("a", "b"));
        assertThat(head.contentLength(), is(0L));
    }

    @Test
    void connectionCloseAndKeepAliveAreUnderstoodInAnyCase() {
        assertThat(parse("GET /a HTTP/1.1\r\nHost: h\r\nConnection: Close\r\n\r\n").close(), is(true));
        assertThat(parse("GET /a HTTP/1.1\r\nHost: h\r\nConnection: keep-alive\r\n\r\n").close(), is(false));
    }

    @Test
    void aChunkedBodyIsMarkedByALengthOfMinusOne() {
        assertThat(parse("POST /a HTTP/1.1\r\nHost: h\r\nTransfer-Encoding: Chunked\r\n\r\n").contentLength(), is(-1L));
    }

    @Test
    void anHttp10RequestClosesUnlessItAsksToBeKeptAlive() {
        LeanHead plain = parse("GET /a HTTP/1.0\r\nHost: h\r\n\r\n");
        LeanHead kept = parse("GET /a HTTP/1.0\r\nHost: h\r\nConnection: Keep-Alive\r\n\r\n");

        assertThat(plain.http10(), is(true));
        assertThat(plain.close(), is(true));
        assertThat(kept.close(), is(false));
    }

    @Test
    void anHttp10RequestWithoutHostIsForwardedWithTheAddressTheClientReached() {
        LeanHead head = parse("GET /a HTTP/1.0\r\n\r\n");

        assertThat(head.headers().get(HeaderNames.HOST).get(), is("127.0.0.1:9090"));
    }

    @Test
    void anHttp10RequestsUpgradeExpectAndHttp2SettingsAreIgnoredAndNotForwarded() {
        LeanHead head = parse("POST /a HTTP/1.0\r\nHost: h\r\nUpgrade: h2c\r\nHTTP2-Settings: AAMAAABkAAQCAAAAAAIAAAAA\r\n"
                + "Expect: 100-continue\r\nContent-Length: 5\r\n\r\n");

        assertThat(head, notNullValue());
        assertThat(head.headers().contains(HeaderNames.UPGRADE), is(false));
        assertThat(head.headers().contains(HeaderNames.create("HTTP2-Settings")), is(false));
        assertThat(head.headers().contains(HeaderNames.EXPECT), is(false));
        assertThat(head.contentLength(), is(5L));
    }

    @Test
    void theRoutersOwnPathIsParsedOnHttp10ForTheConnectionToAnswer() {
        assertThat(parse("GET /up HTTP/1.0\r\n\r\n").prologue().uriPath().path(), is("/up"));
    }

    @Test
    void anHttp10RequestLineIsToldFromAnHttp11One() {
        assertThat(LeanHead.isHttp10(bytes("GET / HTTP/1.0\r\n"), 16), is(true));
        assertThat(LeanHead.isHttp10(bytes("GET / HTTP/1.1\r\n"), 16), is(false));
        assertThat(LeanHead.isHttp10(bytes("GET /HTTP/1.0\r\n"), 15), is(false));
        assertThat(LeanHead.isHttp10(bytes("GET / XHTTP/1.0\r\n"), 17), is(false));
        assertThat(LeanHead.isHttp10(bytes("GET / HTTP/1.0"), 14), is(false));
    }

    private static byte[] bytes(String text) {
        return text.getBytes(java.nio.charset.StandardCharsets.US_ASCII);
    }

    static Stream<String> headsForHelidon() {
        return Stream.of(
                "GET http://h/a HTTP/1.1\r\nHost: h\r\n\r\n",
                "OPTIONS * HTTP/1.1\r\nHost: h\r\n\r\n",
                "get /a HTTP/1.1\r\nHost: h\r\n\r\n",
                "TRACE /a HTTP/1.1\r\nHost: h\r\n\r\n",
                "GET  /a HTTP/1.1\r\nHost: h\r\n\r\n",
                "GET /a  HTTP/1.1\r\nHost: h\r\n\r\n",
                "GET /a HTTP/1.1 \r\nHost: h\r\n\r\n",
                "GET /a#frag HTTP/1.1\r\nHost: h\r\n\r\n",
                "GET /a?x={1} HTTP/1.1\r\nHost: h\r\n\r\n",
                "GET /a%zz HTTP/1.1\r\nHost: h\r\n\r\n",
                "GET /up HTTP/1.1\r\nHost: h\r\n\r\n",
                "GET /up?full=1 HTTP/1.1\r\nHost: h\r\n\r\n",
                "GET /%75p HTTP/1.1\r\nHost: h\r\n\r\n",
                "GET /a HTTP/1.1\r\n\r\n",
                "GET /a HTTP/1.1\r\nHost: h\r\nHost: h\r\n\r\n",
                "GET /a HTTP/1.1\r\nHost:\r\n\r\n",
                "GET /a HTTP/1.1\r\nHost: user@h\r\n\r\n",
                "GET /a HTTP/1.1\r\nHost: [::1]:80\r\n\r\n",
                "GET /a HTTP/1.1\r\nHost: h:\r\n\r\n",
                "GET /a HTTP/1.1\r\nHost: h:8o\r\n\r\n",
                "GET /a HTTP/1.1\r\nHost: h:123456\r\n\r\n",
                "POST /a HTTP/1.1\r\nHost: h\r\nTransfer-Encoding: gzip, chunked\r\n\r\n",
                "POST /a HTTP/1.1\r\nHost: h\r\nTransfer-Encoding: chunked\r\nContent-Length: 5\r\n\r\n",
                "POST /a HTTP/1.1\r\nHost: h\r\nTransfer-Encoding: chunked\r\nTransfer-Encoding: chunked\r\n\r\n",
                "POST /a HTTP/1.0\r\nHost: h\r\nTransfer-Encoding: chunked\r\n\r\n",
                "POST /a HTTP/1.1\r\nHost: h\r\nContent-Length: 5\r\nContent-Length: 5\r\n\r\n",
                "POST /a HTTP/1.1\r\nHost: h\r\nContent-Length: +5\r\n\r\n",
                "POST /a HTTP/1.1\r\nHost: h\r\nContent-Length: 5, 5\r\n\r\n",
                "POST /a HTTP/1.1\r\nHost: h\r\nContent-Length:\r\n\r\n",
                "POST /a HTTP/1.1\r\nHost: h\r\nContent-Length: 1234567890123456789\r\n\r\n",
                "POST /a HTTP/1.1\r\nHost: h\r\nExpect: 100-continue\r\nContent-Length: 5\r\n\r\n",
                "GET /a HTTP/1.1\r\nHost: h\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n\r\n",
                "GET /a HTTP/1.1\r\nHost: h\r\nConnection: close, te\r\n\r\n",
                "GET /a HTTP/1.1\r\nHost: h\r\nX-Helidon-Cn: admin\r\n\r\n",
                "GET /a HTTP/1.1\r\nHost: h\r\nX Name: v\r\n\r\n",
                "GET /a HTTP/1.1\r\nHost: h\r\nX-Name : v\r\n\r\n",
                "GET /a HTTP/1.1\r\nHost: h\r\nX-(Name): v\r\n\r\n",
                "GET /a HTTP/1.1\r\nHost: h\r\nX-Name: v\r\n folded\r\n\r\n",
                "GET /a HTTP/1.1\r\nHost: h\r\nX-Name: caf\u00e9\r\n\r\n",
                "GET /a HTTP/1.1\r\nHost: h\r\nX-Name: a\u0000b\r\n\r\n",
                "GET /a HTTP/1.1\r\nHost: h\r\nX-Name: a\rb\r\n\r\n",
                "GET /a HTTP/1.1\r\nHost: h\r\nX-Name v\r\n\r\n",
                "GET /a HTTP/1.1\r\nHost: h\r\n: v\r\n\r\n");
    }

    @ParameterizedTest
    @MethodSource("headsForHelidon")
    void anyHeadOutsideTheSubsetIsLeftToHelidon(String head) {
        assertThat(head, parse(head), nullValue());
    }
}
