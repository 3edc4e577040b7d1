package io.insika.router.server.proxy;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.stream.Stream;

import io.insika.router.server.RouterServer;
import io.insika.router.server.testing.Http1Messages;
import io.insika.router.server.testing.ScriptedBackend;
import io.insika.router.server.testing.TestServers;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;
import io.insika.router.server.testing.TestProxySettings;

import static org.hamcrest.MatcherAssert.assertThat;
import static org.hamcrest.Matchers.is;
import static org.hamcrest.Matchers.not;
import static org.hamcrest.Matchers.containsString;

/**
 * The conformance corpus, backend side: answers a buggy or hostile backend writes, relayed to a
 * raw client. For every vector the client gets either a 502 holding nothing of the backend's
 * answer, or one answer that a strict and a lenient reader parse alike, with the body the
 * backend meant; a head the router relayed is never followed by bytes a client would read as
 * a second answer, and the client's next request on the same connection gets its own answer.
 */
class ResponseConformanceTest {

    /** What the client must get. */
    enum Expect { BAD_GATEWAY, RELAYED }

    record Vector(String name, String method, String answer, Expect expect, int status, String body) {
        @Override
        public String toString() {
            return name;
        }
    }

    private static final String OK = "HTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\nok";

    private static ScriptedBackend backend;
    private static RouterServer router;
    private static volatile String current = OK;

    @BeforeAll
    static void start() throws IOException {
        backend = ScriptedBackend.answering(head -> head.contains(" /vector ")
                ? ScriptedBackend.Answer.thenClose(current)
                : ScriptedBackend.Answer.keep(OK));
        router = TestServers.start(RouterFixture.defaultRoutes(),
                RouterFixture.ketamaPool(List.of(backend.backend())), TestProxySettings.DEFAULTS);
    }

    @AfterAll
    static void stop() {
        router.close();
        backend.close();
    }

    private static Vector refused(String name, String answer) {
        return new Vector(name, "GET", answer, Expect.BAD_GATEWAY, 502, null);
    }

    private static Vector relayed(String name, String method, String answer, int status, String body) {
        return new Vector(name, method, answer, Expect.RELAYED, status, body);
    }

    static Stream<Vector> vectors() {
        return Stream.of(
                // a head that is not valid never reaches the client, so its body cannot become one
                refused("control-byte-in-value", "HTTP/1.1 200 OK\r\nX-A: a\u0001b\r\nContent-Length: 4\r\n\r\nEVIL"),
                refused("nul-in-value", "HTTP/1.1 200 OK\r\nX-A: a\u0000b\r\nContent-Length: 4\r\n\r\nEVIL"),
                refused("bare-cr-in-value", "HTTP/1.1 200 OK\r\nX-A: a\rb\r\nContent-Length: 4\r\n\r\nEVIL"),
                refused("del-in-value", "HTTP/1.1 200 OK\r\nX-A: a\u007fb\r\nContent-Length: 4\r\n\r\nEVIL"),
                refused("space-in-name", "HTTP/1.1 200 OK\r\nX A: b\r\nContent-Length: 4\r\n\r\nEVIL"),
                refused("paren-in-name", "HTTP/1.1 200 OK\r\nX(A): b\r\nContent-Length: 4\r\n\r\nEVIL"),
                refused("space-before-colon", "HTTP/1.1 200 OK\r\nContent-Length : 4\r\n\r\nEVIL"),
                refused("obs-fold", "HTTP/1.1 200 OK\r\nX-A: a\r\n b\r\nContent-Length: 4\r\n\r\nEVIL"),
                refused("no-colon", "HTTP/1.1 200 OK\r\nX-A\r\nContent-Length: 4\r\n\r\nEVIL"),
                refused("bare-cr-in-reason", "HTTP/1.1 200 O\rK\r\nContent-Length: 4\r\n\r\nEVIL"),
                refused("four-digit-status", "HTTP/1.1 2000 OK\r\nContent-Length: 4\r\n\r\nEVIL"),
                refused("http-2-status-line", "HTTP/2 200 OK\r\nContent-Length: 4\r\n\r\nEVIL"),
                refused("not-http", "EVIL"),
                refused("oversized-head", "HTTP/1.1 200 OK\r\nX-Big: " + "a".repeat(70_000) + "\r\nContent-Length: 4\r\n\r\nEVIL"),
                refused("interim-flood", "HTTP/1.1 100 Continue\r\n\r\n".repeat(20) + "HTTP/1.1 200 OK\r\nContent-Length: 4\r\n\r\nEVIL"),
                // framing the router cannot trust
                refused("te-gzip", "HTTP/1.1 200 OK\r\nTransfer-Encoding: gzip\r\n\r\nEVIL"),
                refused("te-chunked-twice", "HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked, chunked\r\n\r\n4\r\nEVIL\r\n0\r\n\r\n"),
                refused("cl-conflicting", "HTTP/1.1 200 OK\r\nContent-Length: 4\r\nContent-Length: 5\r\n\r\nEVIL"),
                refused("cl-plus", "HTTP/1.1 200 OK\r\nContent-Length: +4\r\n\r\nEVIL"),
                refused("chunk-size-negative", "HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n-1\r\nEVIL\r\n0\r\n\r\n"),
                refused("chunk-size-17-digits", "HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n"
                        + "00000000000000004\r\nEVIL\r\n0\r\n\r\n"),
                refused("chunk-size-0x", "HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n0x4\r\nEVIL\r\n0\r\n\r\n"),
                refused("length-body-ends-before-a-byte", "HTTP/1.1 200 OK\r\nContent-Length: 100\r\n\r\n"),
                refused("chunked-body-ends-before-a-byte", "HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n"),
                // framing the router reads and then states in its own words
                relayed("te-and-cl", "GET", "HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\nContent-Length: 100\r\n\r\n"
                        + "5\r\nhello\r\n0\r\n\r\n", 200, "hello"),
                relayed("cl-list-agreeing", "GET", "HTTP/1.1 200 OK\r\nContent-Length: 5, 5\r\n\r\nhello", 200, "hello"),
                relayed("304-with-length", "GET", "HTTP/1.1 304 Not Modified\r\nContent-Length: 5\r\nETag: \"e\"\r\n\r\n",
                        304, ""),
                relayed("204-with-length", "GET", "HTTP/1.1 204 No Content\r\nContent-Length: 5\r\n\r\n", 204, ""),
                relayed("head-of-chunked", "HEAD", "HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n", 200, ""),
                relayed("head-with-length", "HEAD", "HTTP/1.1 200 OK\r\nContent-Length: 42\r\n\r\n", 200, ""),
                relayed("interim-then-final", "GET", "HTTP/1.1 103 Early Hints\r\nLink: </a>\r\n\r\n" + OK, 200, "ok"),
                relayed("bare-lf-head", "GET", "HTTP/1.1 200 OK\nContent-Length: 5\n\nhello", 200, "hello"),
                relayed("close-delimited", "GET", "HTTP/1.1 200 OK\r\n\r\nhello", 200, "hello"),
                relayed("http-1.0-answer", "GET", "HTTP/1.0 200 OK\r\nContent-Length: 5\r\n\r\nhello", 200, "hello"),
                relayed("chunk-extensions-and-trailers", "GET", "HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n"
                        + "5;a=b\r\nhello\r\n0\r\nX-T: t\r\n\r\n", 200, "hello"),
                relayed("obs-text-value", "GET", "HTTP/1.1 200 OK\r\nX-Name: caf\u00c3\u00a9\r\nContent-Length: 5\r\n\r\nhello",
                        200, "hello"));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("vectors")
    void eachAnswerIsRefusedWithA502OrRelayedAsExactlyOneUnambiguousAnswer(Vector vector) throws Exception {
        current = vector.answer();
        try (Socket socket = new Socket("127.0.0.1", router.port())) {
            socket.setSoTimeout(100);
            byte[] received = exchange(socket, vector.method() + " /vector HTTP/1.1\r\nHost: x\r\n\r\n", vector.method());
            Http1Messages.Reading strict = Http1Messages.responses(received, true, vector.method());
            Http1Messages.Reading lenient = Http1Messages.responses(received, false, vector.method());
            assertThat(vector + ": the client's bytes read alike", lenient.describe(), is(strict.describe()));
            assertThat(vector + ": one answer: " + strict.describe(), strict.messages().size(), is(1));
            Http1Messages.Message answer = strict.messages().getFirst();
            assertThat(vector + ": status", answer.status(), is(vector.status()));
            if (vector.expect() == Expect.BAD_GATEWAY) {
                assertThat(vector + ": nothing of the backend's", answer.bodyText(), not(containsString("EVIL")));
            } else {
                assertThat(vector + ": body", answer.bodyText(), is(vector.body()));
                checkFraming(vector, answer);
            }
            if (!socket.isInputShutdown() && strict.cleanEnd() && !answer.values("connection").contains("close")) {
                byte[] next = exchange(socket, "GET /after HTTP/1.1\r\nHost: x\r\n\r\n", "GET");
                Http1Messages.Reading after = Http1Messages.responses(next, true, "GET");
                assertThat(vector + ": the next answer on the connection: " + after.describe(),
                        after.messages().size() == 1 && after.messages().getFirst().bodyText().equals("ok"), is(true));
            }
        }
    }

    private static void checkFraming(Vector vector, Http1Messages.Message answer) {
        List<String> lengths = answer.values("content-length");
        switch (vector.name()) {
            case "304-with-length", "204-with-length", "head-of-chunked" ->
                    assertThat(vector + ": no length claimed", lengths, is(List.of()));
            case "head-with-length" -> assertThat(vector + ": the length of the GET", lengths, is(List.of("42")));
            case "obs-text-value" -> assertThat(vector + ": octets kept", answer.values("x-name"),
                    is(List.of("caf\u00c3\u00a9")));
            default -> {
                // the readers agreeing is the check
            }
        }
    }

    // Writes the request, then reads until the router closes, or one whole answer came and then quiet.
    private static byte[] exchange(Socket socket, String request, String method) throws IOException {
        OutputStream out = socket.getOutputStream();
        out.write(request.getBytes(StandardCharsets.ISO_8859_1));
        out.flush();
        InputStream in = socket.getInputStream();
        ByteArrayOutputStream all = new ByteArrayOutputStream();
        byte[] buffer = new byte[8192];
        long deadline = System.nanoTime() + 5_000_000_000L;
        while (System.nanoTime() < deadline) {
            try {
                int n = in.read(buffer);
                if (n < 0) {
                    socket.shutdownInput();
                    break;
                }
                all.write(buffer, 0, n);
            } catch (SocketTimeoutException e) {
                if (!Http1Messages.responses(all.toByteArray(), false, method).messages().isEmpty()) {
                    break;
                }
            } catch (IOException e) {
                socket.shutdownInput();
                break;
            }
        }
        return all.toByteArray();
    }
}
