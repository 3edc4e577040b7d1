package io.insika.router.server.upstream;

import java.io.IOException;
import java.net.ProtocolException;
import java.nio.charset.StandardCharsets;
import java.util.List;

import io.helidon.http.Header;
import io.helidon.http.HeaderNames;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import static org.hamcrest.MatcherAssert.assertThat;
import static org.hamcrest.Matchers.contains;
import static org.hamcrest.Matchers.containsString;
import static org.hamcrest.Matchers.is;
import static org.junit.jupiter.api.Assertions.assertThrows;

/**
 * A backend's head parses the same however the socket cuts it: lines are parsed where they lie
 * in the connection's buffer, and gathered first when a read ends mid-line.
 */
class ResponseHeadTest {

    private static final String LONG = "v".repeat(200);
    private static final byte[] ANSWER = ("HTTP/1.1 200 OK\r\n"
            + "Content-Type: text/plain\r\n"
            + "X-Long:  " + LONG + " \t\r\n"
            + "Set-Cookie: a=1\r\n"
            + "Set-Cookie: b=2\n"
            + "X-Obs: caf\u00e9\r\n"
            + "X-Empty:\r\n"
            + "\r\n"
            + "rest").getBytes(StandardCharsets.ISO_8859_1);

    @ParameterizedTest(name = "{0} bytes per read")
    @ValueSource(ints = {1, 2, 3, 5, 7, 11, 13, 16})
    void aHeadCutAnywhereByTheSocketParsesAsAWholeOne(int step) throws IOException {
        Http1FuzzTest.ArrayInput input = new Http1FuzzTest.ArrayInput(ANSWER, step);

        ResponseHead head = ResponseHead.read(input);

        assertThat(head.status(), is(200));
        assertThat(head.keepAlive(), is(true));
        List<String> fields = head.headers().stream().map(ResponseHeadTest::field).toList();
        assertThat(fields, contains("Content-Type=text/plain", "X-Long=" + LONG, "Set-Cookie=a=1", "Set-Cookie=b=2",
                "X-Obs=caf\u00e9", "X-Empty="));
        input.require();
        assertThat("the body starts right after the head", (char) input.buffer()[input.position()], is('r'));
    }

    @Test
    void aKnownNameIsHelidonsOwnHowEverItIsSpeltAndAnyOtherKeepsItsSpelling() throws IOException {
        byte[] answer = ("HTTP/1.1 200 OK\r\nContent-Type: a\r\ncontent-type: b\r\nETag: \"1\"\r\n"
                + "X-Custom-Thing: c\r\nContent-Typo: d\r\n\r\n").getBytes(StandardCharsets.ISO_8859_1);

        List<Header> headers = ResponseHead.read(new Http1FuzzTest.ArrayInput(answer, 16)).headers();

        assertThat(headers.get(0).headerName() == HeaderNames.CONTENT_TYPE, is(true));
        assertThat(headers.get(1).headerName() == HeaderNames.CONTENT_TYPE, is(true));
        assertThat(headers.get(2).headerName() == HeaderNames.ETAG, is(true));
        assertThat(headers.get(3).name(), is("X-Custom-Thing"));
        assertThat(headers.get(3).headerName().lowerCase(), is("x-custom-thing"));
        assertThat(headers.get(4).name(), is("Content-Typo"));
    }

    @ParameterizedTest(name = "{0} bytes per read")
    @ValueSource(ints = {1, 4, 16})
    void aBareCrInsideAFieldIsRefusedWhereverTheReadsEnd(int step) {
        byte[] answer = "HTTP/1.1 200 OK\r\nX-Split: a\rb\r\n\r\n".getBytes(StandardCharsets.ISO_8859_1);

        ProtocolException refused = assertThrows(ProtocolException.class,
                () -> ResponseHead.read(new Http1FuzzTest.ArrayInput(answer, step)));

        assertThat(refused.getMessage(), containsString("malformed header line: X-Split: a?b"));
    }

    @Test
    void anHttp10AnswerClosesUnlessItAsksToBeKept() throws IOException {
        byte[] answer = "HTTP/1.0 404 Not Found\r\nConnection: Keep-Alive\r\n\r\n".getBytes(StandardCharsets.ISO_8859_1);
        assertThat(ResponseHead.read(new Http1FuzzTest.ArrayInput(answer, 16)).keepAlive(), is(true));

        byte[] closing = "HTTP/1.0 404 Not Found\r\n\r\n".getBytes(StandardCharsets.ISO_8859_1);
        assertThat(ResponseHead.read(new Http1FuzzTest.ArrayInput(closing, 16)).keepAlive(), is(false));
    }

    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {"HTTP/1.1|Connection: close|false", "HTTP/1.1|Connection: Keep-Alive, CLOSE|false",
        "HTTP/1.1|Connection: keep-alive|true", "HTTP/1.1|Connection: x-close, closed|true",
        "HTTP/1.1|Connection: ,, \t close \t,|false", "HTTP/1.1|Connection: keep-alive\r\nConnection: close|false",
        "HTTP/1.0|Connection: close\r\nConnection: keep-alive|false", "HTTP/1.0|Connection: te, keep-alive|true",
        "HTTP/1.0|Connection: keep-alive-ish|false", "HTTP/1.0|Connection:|false"})
    void theConnectionIsKeptOnlyWhenNoElementOfConnectionSaysClose(String vector) throws IOException {
        String[] parts = vector.split("\\|");
        byte[] answer = (parts[0] + " 200 OK\r\n" + parts[1] + "\r\nContent-Length: 0\r\n\r\n")
                .getBytes(StandardCharsets.ISO_8859_1);
        assertThat(vector, ResponseHead.read(new Http1FuzzTest.ArrayInput(answer, 16)).keepAlive(),
                is(Boolean.parseBoolean(parts[2])));
    }

    @Test
    void aStatusLineThatIsNotHttp1IsRefused() {
        for (String line : List.of("HTTP/2.0 200 OK", "HTTP/1.1 20 OK", "HTTP/1.1 2000", "HTTP/1.1 099 x",
                "HTTP/1.1 200 O\u0001K", "http/1.1 200 OK", "")) {
            byte[] answer = (line + "\r\n\r\n").getBytes(StandardCharsets.ISO_8859_1);
            assertThrows(ProtocolException.class, () -> ResponseHead.read(new Http1FuzzTest.ArrayInput(answer, 16)),
                    line);
        }
    }

    @Test
    void aHeadLongerThanTheLimitIsRefusedEvenWhenItNeverEndsALine() {
        byte[] answer = ("HTTP/1.1 200 OK\r\nX-Big: " + "x".repeat(ResponseHead.MAX_HEAD_BYTES))
                .getBytes(StandardCharsets.ISO_8859_1);

        ProtocolException refused = assertThrows(ProtocolException.class,
                () -> ResponseHead.read(new Http1FuzzTest.ArrayInput(answer, 16)));

        assertThat(refused.getMessage(), containsString("longer than"));
    }

    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {"Bad Name: x", "X-T : x", "X-T: a\rb", "X-T: a\u0001b", "no-colon"})
    void aTrailerFieldIsHeldToTheHeadsRule(String trailer) throws IOException {
        byte[] answer = ("HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n5\r\nhello\r\n0\r\n" + trailer
                + "\r\n\r\n").getBytes(StandardCharsets.ISO_8859_1);
        Http1FuzzTest.ArrayInput input = new Http1FuzzTest.ArrayInput(answer, 7);
        ResponseBody body = ResponseBody.of(input, ResponseHead.read(input), false);
        byte[] buffer = new byte[64];

        assertThat(body.read(buffer), is(5));
        assertThrows(ProtocolException.class, () -> body.read(buffer));
    }

    @Test
    void aWellFormedTrailerEndsTheBody() throws IOException {
        byte[] answer = "HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n5\r\nhello\r\n0\r\nX-T: caf\u00e9\r\n\r\n"
                .getBytes(StandardCharsets.ISO_8859_1);
        Http1FuzzTest.ArrayInput input = new Http1FuzzTest.ArrayInput(answer, 7);
        ResponseBody body = ResponseBody.of(input, ResponseHead.read(input), false);
        byte[] buffer = new byte[64];

        assertThat(body.read(buffer), is(5));
        assertThat(body.read(buffer), is(-1));
        assertThat(body.complete(), is(true));
    }

    private static String field(Header header) {
        return header.name() + "=" + header.get();
    }
}
