package io.insika.router.server.proxy;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.stream.Stream;

import javax.net.ssl.SSLSocket;

import io.insika.router.server.RouterServer;
import io.insika.router.server.testing.Http1Messages;
import io.insika.router.server.testing.TestCertificates;
import io.insika.router.server.testing.TestProxySettings;
import io.insika.router.server.testing.TestServers;
import io.insika.router.server.tls.TlsMaterial;
import io.insika.router.server.tls.TlsSettings;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

import static org.hamcrest.MatcherAssert.assertThat;
import static org.hamcrest.Matchers.containsString;
import static org.hamcrest.Matchers.endsWith;
import static org.hamcrest.Matchers.is;
import static org.hamcrest.Matchers.startsWith;

/**
 * The conformance corpus, client side: requests as an attacker or a broken client writes them,
 * sent raw through the router to a {@link RecordingBackend}. For every vector the router either
 * refuses it (a 4xx, and nothing complete reaches the backend) or forwards exactly one message
 * that a strict and a lenient reader parse alike; and the next client, served over the same
 * pooled backend connection, gets the answer to its own request, never a smuggled one's. The
 * corpus runs over plain HTTP and again over TLS, where the backend must be told {@code https}.
 */
class RequestConformanceTest {

    /**
     * What the router must do with a vector: refuse it before any backend is chosen, refuse it
     * once its body turns out bad on the way to a backend (whose connection is then spent, but
     * which never gets a complete message), forward it, or either of refusing and forwarding.
     */
    enum Expect { REFUSED, CUT, FORWARDED, EITHER }

    record Vector(String name, String request, Expect expect) {
        @Override
        public String toString() {
            return name;
        }
    }

    /** How the client reaches the router, and what the router must tell the backend of it. */
    enum Transport {
        PLAIN("http"), TLS("https");

        final String proto;

        Transport(String proto) {
            this.proto = proto;
        }
    }

    private static final String KEPT_ID = "edge-7f3a9c_01:AZ/x+=";
    private static final String SMUGGLED = "GET /slow-smuggled HTTP/1.1\r\nHost: x\r\n\r\n";
    private static final TestCertificates.Authority CA = TestCertificates.authority("corpus-ca");

    private static RecordingBackend backend;
    private static RouterServer router;
    private static RouterServer tlsRouter;
    private static int next;

    @BeforeAll
    static void start() throws IOException {
        backend = RecordingBackend.start();
        router = TestServers.start(RouterFixture.defaultRoutes(),
                RouterFixture.ketamaPool(List.of(backend.backend())), TestProxySettings.DEFAULTS);
        Path files = Files.createTempDirectory("corpus-tls");
        TestCertificates.write(CA.server(), files.resolve("tls.crt"), files.resolve("tls.key"),
                TestCertificates.KeyFormat.PKCS8);
        tlsRouter = RouterServer.start(TestServers.settings(new TlsSettings(TlsMaterial.read(
                        files.resolve("tls.crt"), files.resolve("tls.key"), Optional.empty()), false)),
                RouterFixture.defaultRoutes(), RouterFixture.ketamaPool(List.of(backend.backend())), TestProxySettings.DEFAULTS);
        for (Transport transport : Transport.values()) { // one kept connection each to start with
            exchange(transport, "GET /warm HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n", 1);
        }
    }

    @AfterAll
    static void stop() {
        router.close();
        tlsRouter.close();
        backend.close();
    }

    static Stream<Vector> vectors() {
        return Stream.of(
                // Connection may name hop-by-hop headers, never the framing or what the router sets
                new Vector("connection-names-content-length",
                        post("/v1/responses", "Connection: content-length\r\nContent-Length: " + SMUGGLED.length(), SMUGGLED),
                        Expect.FORWARDED),
                new Vector("connection-names-content-length-unkeyed-route",
                        post("/other", "Connection: content-length\r\nContent-Length: " + SMUGGLED.length(), SMUGGLED),
                        Expect.FORWARDED),
                new Vector("connection-names-transfer-encoding",
                        post("/other", "Connection: transfer-encoding\r\nTransfer-Encoding: chunked",
                                Integer.toHexString(SMUGGLED.length()) + "\r\n" + SMUGGLED + "\r\n0\r\n\r\n"),
                        Expect.FORWARDED),
                new Vector("connection-names-host",
                        "GET /a HTTP/1.1\r\nHost: x\r\nConnection: host\r\n\r\n", Expect.FORWARDED),
                new Vector("connection-names-x-forwarded-for",
                        "GET /a HTTP/1.1\r\nHost: x\r\nConnection: x-forwarded-for\r\nX-Forwarded-For: 1.2.3.4\r\n\r\n",
                        Expect.FORWARDED),
                // classic request smuggling: both framings, obfuscated codings, bad lengths
                new Vector("cl-te", post("/other", "Content-Length: 6\r\nTransfer-Encoding: chunked", "0\r\n\r\nG"),
                        Expect.REFUSED),
                new Vector("te-cl", post("/other", "Transfer-Encoding: chunked\r\nContent-Length: 4",
                        "5c\r\n" + SMUGGLED + "\r\n0\r\n\r\n"), Expect.REFUSED),
                new Vector("te-xchunked", post("/other", "Transfer-Encoding: xchunked", "0\r\n\r\n"), Expect.REFUSED),
                new Vector("te-chunked-identity", post("/other", "Transfer-Encoding: chunked, identity", "0\r\n\r\n"),
                        Expect.REFUSED),
                new Vector("te-twice-chunked", post("/other", "Transfer-Encoding: chunked\r\nTransfer-Encoding: chunked",
                        "0\r\n\r\n"), Expect.REFUSED),
                new Vector("te-space-before-colon", post("/other", "Transfer-Encoding : chunked", "0\r\n\r\n"),
                        Expect.REFUSED),
                new Vector("te-obs-fold", post("/other", "Transfer-Encoding:\r\n chunked", "0\r\n\r\n"), Expect.REFUSED),
                new Vector("te-tab", post("/other", "Transfer-Encoding:\tchunked", "5\r\nhello\r\n0\r\n\r\n"),
                        Expect.EITHER),
                new Vector("cl-duplicate-different", post("/other", "Content-Length: 3\r\nContent-Length: 5", "hello"),
                        Expect.REFUSED),
                new Vector("cl-list-different", post("/other", "Content-Length: 3, 5", "hello"), Expect.REFUSED),
                new Vector("cl-duplicate-same", post("/other", "Content-Length: 5\r\nContent-Length: 5", "hello"),
                        Expect.EITHER),
                new Vector("cl-plus-sign", post("/other", "Content-Length: +5", "hello"), Expect.REFUSED),
                new Vector("cl-negative", post("/other", "Content-Length: -1", "hello"), Expect.REFUSED),
                new Vector("cl-not-a-number", post("/other", "Content-Length: 5x", "hello"), Expect.REFUSED),
                new Vector("cl-hex", post("/other", "Content-Length: 0x5", "hello"), Expect.REFUSED),
                // malformed chunk-size lines: refused, nothing after the error read as a request
                new Vector("chunk-size-negative-keyed", post("/v1/responses", "Transfer-Encoding: chunked",
                        "-5\r\nhello\r\n0\r\n\r\n" + SMUGGLED), Expect.REFUSED),
                new Vector("chunk-size-0x-keyed", post("/v1/responses", "Transfer-Encoding: chunked",
                        "0x5\r\nhello\r\n0\r\n\r\n" + SMUGGLED), Expect.REFUSED),
                new Vector("chunk-size-bare-lf-keyed", post("/v1/responses", "Transfer-Encoding: chunked",
                        "5\nhello\r\n0\r\n\r\n" + SMUGGLED), Expect.REFUSED),
                new Vector("chunk-size-negative-unkeyed", post("/other", "Transfer-Encoding: chunked",
                        "-5\r\nhello\r\n0\r\n\r\n" + SMUGGLED), Expect.CUT),
                new Vector("chunk-size-0x-unkeyed", post("/other", "Transfer-Encoding: chunked",
                        "0x5\r\nhello\r\n0\r\n\r\n" + SMUGGLED), Expect.CUT),
                new Vector("chunk-size-bare-lf-unkeyed", post("/other", "Transfer-Encoding: chunked",
                        "5\nhello\r\n0\r\n\r\n" + SMUGGLED), Expect.CUT),
                new Vector("chunk-size-huge", post("/other", "Transfer-Encoding: chunked",
                        "fffffffffffffffff\r\nhello\r\n0\r\n\r\n"), Expect.CUT),
                new Vector("chunk-size-plus-sign", post("/other", "Transfer-Encoding: chunked",
                        "+5\r\nhello\r\n0\r\n\r\n" + SMUGGLED), Expect.CUT),
                new Vector("chunk-data-longer-than-its-size", post("/other", "Transfer-Encoding: chunked",
                        "5\r\nhelloXX0\r\n\r\n" + SMUGGLED), Expect.CUT),
                new Vector("chunk-data-then-bare-lf", post("/other", "Transfer-Encoding: chunked",
                        "5\r\nhello\n0\r\n\r\n" + SMUGGLED), Expect.CUT),
                // RFC 9112 7.1.1 and 7.1.2: extensions are read past, trailers checked and dropped
                new Vector("chunk-extension", post("/other", "Transfer-Encoding: chunked",
                        "5;name=value\r\nhello\r\n0;last\r\n\r\n"), Expect.FORWARDED),
                new Vector("chunk-extension-quoted-keyed", post("/v1/responses", "Transfer-Encoding: chunked",
                        "c ; a=\"x;y\"\r\n{\"user\":\"a\"}\r\n0\r\n\r\n"), Expect.FORWARDED),
                new Vector("chunk-trailer", post("/other", "Transfer-Encoding: chunked",
                        "5\r\nhello\r\n0\r\nX-Trailer: t\r\n\r\n"), Expect.FORWARDED),
                new Vector("chunk-trailer-keyed", post("/v1/responses", "Transfer-Encoding: chunked",
                        "c\r\n{\"user\":\"a\"}\r\n0\r\nX-Trailer: t\r\nX-Other: u\r\n\r\n"), Expect.FORWARDED),
                new Vector("chunk-trailer-not-a-field", post("/other", "Transfer-Encoding: chunked",
                        "5\r\nhello\r\n0\r\nno colon here\r\n\r\n" + SMUGGLED), Expect.CUT),
                new Vector("chunk-extension-control-char", post("/other", "Transfer-Encoding: chunked",
                        "5;a\u0001\r\nhello\r\n0\r\n\r\n" + SMUGGLED), Expect.CUT),
                // heads: bad bytes, folds, sizes
                new Vector("obs-fold", "GET /a HTTP/1.1\r\nHost: x\r\nX-A: 1\r\n folded\r\n\r\n", Expect.REFUSED),
                new Vector("bare-cr-in-value", "GET /a HTTP/1.1\r\nHost: x\r\nX-A: 1\r2\r\n\r\n", Expect.REFUSED),
                new Vector("nul-in-value", "GET /a HTTP/1.1\r\nHost: x\r\nX-A: 1\u00002\r\n\r\n", Expect.REFUSED),
                new Vector("space-in-name", "GET /a HTTP/1.1\r\nHost: x\r\nX A: 1\r\n\r\n", Expect.REFUSED),
                new Vector("obs-text-in-value", "GET /a HTTP/1.1\r\nHost: x\r\nX-Name: caf\u00c3\u00a9\r\n\r\n",
                        Expect.REFUSED),
                new Vector("obs-text-in-target", "GET /caf\u00c3\u00a9 HTTP/1.1\r\nHost: x\r\n\r\n", Expect.REFUSED),
                new Vector("bare-lf-head", "GET /a HTTP/1.1\nHost: x\n\n", Expect.REFUSED),
                new Vector("no-host", "GET /a HTTP/1.1\r\n\r\n", Expect.REFUSED),
                new Vector("two-hosts", "GET /a HTTP/1.1\r\nHost: x\r\nHost: y\r\n\r\n", Expect.REFUSED),
                new Vector("oversized-head", "GET /a HTTP/1.1\r\nHost: x\r\nX-Big: " + "a".repeat(70_000) + "\r\n\r\n",
                        Expect.REFUSED),
                new Vector("oversized-target", "GET /" + "a".repeat(10_000) + " HTTP/1.1\r\nHost: x\r\n\r\n",
                        Expect.REFUSED),
                // HTTP/1.0 is proxied as HTTP/1.1 (a Host made from the address reached); it has no chunked coding
                new Vector("http-1.0", "GET /a HTTP/1.0\r\n\r\n", Expect.FORWARDED),
                new Vector("http-1.0-keyed", "POST /v1/responses HTTP/1.0\r\nHost: x\r\nContent-Length: 12\r\n\r\n"
                        + "{\"user\":\"a\"}", Expect.FORWARDED),
                new Vector("http-1.0-chunked", "POST /other HTTP/1.0\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\n"
                        + "5\r\nhello\r\n0\r\n\r\n" + SMUGGLED, Expect.REFUSED),
                new Vector("http-1.0-two-hosts", "GET /a HTTP/1.0\r\nHost: x\r\nHost: y\r\n\r\n", Expect.REFUSED),
                // HTTP/1.0 has no upgrade and no 100-continue: both ignored, and the HTTP2-Settings
                // of a client's h2c offer that nginx forwards on its HTTP/1.0 upstream requests
                new Vector("http-1.0-h2c-settings", "GET /a HTTP/1.0\r\nHost: x\r\nConnection: close\r\n"
                        + "HTTP2-Settings: AAMAAABkAAQCAAAAAAIAAAAA\r\n\r\n", Expect.FORWARDED),
                new Vector("http-1.0-upgrade", "GET /a HTTP/1.0\r\nHost: x\r\nUpgrade: websocket\r\n\r\n",
                        Expect.FORWARDED),
                new Vector("http-1.0-expect-continue", "POST /other HTTP/1.0\r\nHost: x\r\nExpect: 100-continue\r\n"
                        + "Content-Length: 5\r\n\r\nhello", Expect.FORWARDED),
                new Vector("pipelined-http-1.0-keep-alive", "GET /p1 HTTP/1.0\r\nConnection: keep-alive\r\n\r\n"
                        + "GET /p2 HTTP/1.0\r\nConnection: keep-alive\r\n\r\n", Expect.FORWARDED),
                new Vector("absolute-form", "GET http://other:8080/a?b=c HTTP/1.1\r\nHost: x\r\n\r\n", Expect.FORWARDED),
                new Vector("proxy-authorization", "GET /a HTTP/1.1\r\nHost: x\r\nProxy-Authorization: Basic eA==\r\n\r\n",
                        Expect.FORWARDED),
                // Helidon's name for a TLS client's certificate CN: a client must not claim one
                new Vector("x-helidon-cn-claimed", "GET /a HTTP/1.1\r\nHost: x\r\nX-Helidon-Cn: admin\r\n\r\n",
                        Expect.FORWARDED),
                new Vector("expect-continue", post("/other", "Expect: 100-continue\r\nContent-Length: 5", "hello"),
                        Expect.FORWARDED),
                new Vector("pipelined-pair", "GET /p1 HTTP/1.1\r\nHost: x\r\n\r\nGET /p2 HTTP/1.1\r\nHost: x\r\n\r\n",
                        Expect.FORWARDED),
                // keyed bodies peeked whole: the router reads each body's end itself (BodyPeek),
                // and must not take a byte of the request that follows it
                new Vector("pipelined-keyed-bodies", post("/v1/responses", "Content-Length: 12", "{\"user\":\"a\"}")
                        + post("/v1/responses", "Content-Length: 12", "{\"user\":\"b\"}"), Expect.FORWARDED),
                // a client's fault is found in its head before any backend is chosen
                new Vector("empty-name", "GET /a HTTP/1.1\r\nHost: x\r\n: y\r\n\r\n", Expect.REFUSED),
                new Vector("empty-name-keyed", post("/v1/responses", ": y\r\nContent-Length: 12", "{\"user\":\"a\"}"),
                        Expect.REFUSED),
                new Vector("name-with-paren", "GET /a HTTP/1.1\r\nHost: x\r\nX(A): y\r\n\r\n", Expect.REFUSED),
                new Vector("name-with-at", "GET /a HTTP/1.1\r\nHost: x\r\nX@A: y\r\n\r\n", Expect.REFUSED),
                new Vector("name-with-slash", "GET /a HTTP/1.1\r\nHost: x\r\nX/A: y\r\n\r\n", Expect.REFUSED),
                new Vector("name-with-brace", "GET /a HTTP/1.1\r\nHost: x\r\n{X}: y\r\n\r\n", Expect.REFUSED),
                new Vector("name-with-quote", "GET /a HTTP/1.1\r\nHost: x\r\nX\"A: y\r\n\r\n", Expect.REFUSED),
                new Vector("name-with-comma", "GET /a HTTP/1.1\r\nHost: x\r\nX,A: y\r\n\r\n", Expect.REFUSED),
                new Vector("method-with-paren", "G(T /a HTTP/1.1\r\nHost: x\r\n\r\n", Expect.REFUSED),
                new Vector("method-with-at", "G@T /a HTTP/1.1\r\nHost: x\r\n\r\n", Expect.REFUSED),
                new Vector("method-with-slash", "G/T /a HTTP/1.1\r\nHost: x\r\n\r\n", Expect.REFUSED),
                new Vector("method-with-brace", "{GET} /a HTTP/1.1\r\nHost: x\r\n\r\n", Expect.REFUSED),
                new Vector("unknown-token-method", "PURGE /a HTTP/1.1\r\nHost: x\r\n\r\n", Expect.FORWARDED),
                // an absolute-form target's authority is held to what a Host header is held to
                new Vector("absolute-form-userinfo", "GET http://user:pass@other/a HTTP/1.1\r\nHost: x\r\n\r\n",
                        Expect.REFUSED),
                new Vector("absolute-form-user", "GET http://user@other/a HTTP/1.1\r\nHost: x\r\n\r\n",
                        Expect.REFUSED),
                new Vector("absolute-form-empty-authority", "GET http:///a HTTP/1.1\r\nHost: x\r\n\r\n",
                        Expect.REFUSED),
                new Vector("absolute-form-ftp", "GET ftp://other/a HTTP/1.1\r\nHost: x\r\n\r\n", Expect.REFUSED),
                new Vector("absolute-form-bad-port", "GET http://other:8x/a HTTP/1.1\r\nHost: x\r\n\r\n",
                        Expect.REFUSED),
                new Vector("absolute-form-empty-port", "GET http://other:/a HTTP/1.1\r\nHost: x\r\n\r\n",
                        Expect.REFUSED),
                new Vector("absolute-form-bad-host", "GET http://ot{her/a HTTP/1.1\r\nHost: x\r\n\r\n",
                        Expect.REFUSED),
                new Vector("absolute-form-open-bracket", "GET http://[::1/a HTTP/1.1\r\nHost: x\r\n\r\n",
                        Expect.REFUSED),
                new Vector("absolute-form-https", "GET https://other/a HTTP/1.1\r\nHost: x\r\n\r\n",
                        Expect.FORWARDED),
                new Vector("absolute-form-upper-case-scheme", "GET HTTP://other/a HTTP/1.1\r\nHost: x\r\n\r\n",
                        Expect.FORWARDED),
                new Vector("absolute-form-ipv6", "GET http://[::1]:8080/a HTTP/1.1\r\nHost: x\r\n\r\n",
                        Expect.FORWARDED),
                new Vector("absolute-form-no-path", "GET http://other:8080?q=1 HTTP/1.1\r\nHost: x\r\n\r\n",
                        Expect.FORWARDED),
                new Vector("relative-target", "GET a/b HTTP/1.1\r\nHost: x\r\n\r\n", Expect.REFUSED),
                new Vector("asterisk-form", "OPTIONS * HTTP/1.1\r\nHost: x\r\n\r\n", Expect.REFUSED),
                // what a client claims of its connection: never believed from an untrusted peer
                new Vector("forwarding-claims", "GET /a HTTP/1.1\r\nHost: x\r\n"
                        + "Forwarded: for=203.0.113.7;proto=https;host=evil\r\nX-Real-IP: 203.0.113.7\r\n"
                        + "True-Client-IP: 203.0.113.7\r\nX-Forwarded-Port: 443\r\nX-Forwarded-Prefix: /admin\r\n"
                        + "X-Forwarded-Ssl: on\r\nX-Forwarded-Server: evil\r\n\r\n", Expect.FORWARDED),
                new Vector("forwarding-claims-underscored", "GET /a HTTP/1.1\r\nHost: x\r\n"
                        + "X_Forwarded_For: 203.0.113.7\r\nX_Forwarded_Proto: https\r\nX_Forwarded_Host: evil\r\n"
                        + "X_Real_IP: 203.0.113.7\r\nX_Forwarded_Port: 443\r\n\r\n", Expect.FORWARDED),
                new Vector("forwarding-claims-named-in-connection", "GET /a HTTP/1.1\r\nHost: x\r\n"
                        + "Connection: forwarded, x-forwarded-for\r\nForwarded: for=203.0.113.7\r\n\r\n",
                        Expect.FORWARDED),
                // names a backend that merges '_' with '-' (WSGI, CGI) reads as the router's own
                new Vector("content-length-underscored", post("/other", "Content_Length: " + SMUGGLED.length()
                        + "\r\nContent-Length: " + SMUGGLED.length(), SMUGGLED), Expect.FORWARDED),
                new Vector("transfer-encoding-underscored", post("/other", "Transfer_Encoding: chunked"
                        + "\r\nContent-Length: 5", "hello"), Expect.FORWARDED),
                new Vector("proxy-authorization-underscored",
                        "GET /a HTTP/1.1\r\nHost: x\r\nProxy_Authorization: Basic eA==\r\n\r\n", Expect.FORWARDED),
                // X-Request-Id: a client's plain id is kept (KEPT_ID); any other value is replaced, never relayed
                new Vector("request-id-kept", "GET /a HTTP/1.1\r\nHost: x\r\nX-Request-Id: " + KEPT_ID + "\r\n\r\n",
                        Expect.FORWARDED),
                new Vector("request-id-with-space", "GET /a HTTP/1.1\r\nHost: x\r\nX-Request-Id: a b\r\n\r\n",
                        Expect.FORWARDED),
                new Vector("request-id-with-quote", "GET /a HTTP/1.1\r\nHost: x\r\nX-Request-Id: \"a\"\r\n\r\n",
                        Expect.FORWARDED),
                new Vector("request-id-with-comma", "GET /a HTTP/1.1\r\nHost: x\r\nX-Request-Id: a,b\r\n\r\n",
                        Expect.FORWARDED),
                new Vector("request-id-too-long", "GET /a HTTP/1.1\r\nHost: x\r\nX-Request-Id: " + "a".repeat(129)
                        + "\r\n\r\n", Expect.FORWARDED),
                new Vector("request-id-twice", "GET /a HTTP/1.1\r\nHost: x\r\nX-Request-Id: a\r\nX-Request-Id: b\r\n\r\n",
                        Expect.FORWARDED),
                new Vector("request-id-obs-text", "GET /a HTTP/1.1\r\nHost: x\r\nX-Request-Id: a\u00e9\r\n\r\n",
                        Expect.EITHER),
                new Vector("request-id-empty", "GET /a HTTP/1.1\r\nHost: x\r\nX-Request-Id:\r\n\r\n", Expect.FORWARDED),
                new Vector("request-id-underscored", "GET /a HTTP/1.1\r\nHost: x\r\nX_Request_Id: forged\r\n\r\n",
                        Expect.FORWARDED));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("vectors")
    void eachVectorIsRefusedOrForwardedAsExactlyOneUnambiguousMessage(Vector vector) throws Exception {
        check(vector, Transport.PLAIN);
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("vectors")
    void overTlsEachVectorIsRefusedOrForwardedAlikeAndTheBackendIsToldHttps(Vector vector) throws Exception {
        check(vector, Transport.TLS);
    }

    private static void check(Vector vector, Transport transport) throws Exception {
        List<Integer> before = backend.sizes();
        int connections = before.size();
        boolean pipelined = vector.name().startsWith("pipelined-");
        String answer = withoutInterim(exchange(transport, vector.request(), pipelined ? 2 : 1));
        Thread.sleep(50); // the backend records what it read

        int forwarded = 0;
        for (byte[] received : backend.receivedSince(before)) {
            Http1Messages.Reading strict = Http1Messages.requests(received, true);
            Http1Messages.Reading lenient = Http1Messages.requests(received, false);
            assertThat(vector + ": what the backend got reads alike, strictly and leniently",
                    lenient.describe(), is(strict.describe()));
            assertThat(vector + ": " + strict.describe(), strict.cleanEnd() || strict.ending().startsWith("cut"), is(true));
            forwarded += strict.messages().size();
            for (Http1Messages.Message message : strict.messages()) {
                assertThat(vector + ": the backend never gets a proxy credential",
                        message.values("proxy-authorization").isEmpty(), is(true));
                assertThat(vector + ": the backend never gets a client's claim of a TLS identity",
                        message.values("x-helidon-cn").isEmpty(), is(true));
                assertThat(vector + ": origin form only", message.startLine().split(" ")[1], startsWith("/"));
                for (String field : message.fields()) {
                    String name = field.substring(0, field.indexOf(':'));
                    assertThat(vector + ": the backend never gets a client's forwarding claim: " + field + " in "
                                    + message.fields(),
                            forwardingClaim(name) || vouchedAlias(name), is(false));
                }
                assertThat(vector + ": the router's own X-Forwarded-For", message.values("x-forwarded-for"),
                        is(List.of("127.0.0.1")));
                assertThat(vector + ": the router's own X-Forwarded-Proto", message.values("x-forwarded-proto"),
                        is(List.of(transport.proto)));
                List<String> ids = message.values("x-request-id");
                assertThat(vector + ": one request id, a valid one: " + ids, ids.size() == 1 && RequestId.valid(ids.get(0)),
                        is(true));
                assertThat(vector + ": the client's own id only when it is valid", ids.get(0).equals(KEPT_ID),
                        is(vector.name().equals("request-id-kept")));
                if (vector.expect() == Expect.FORWARDED && !pipelined) {
                    assertThat(vector + ": the client gets the id the backend got", answer.substring(0, answer.indexOf("\r\n\r\n") + 2).toLowerCase(),
                            containsString("\r\nx-request-id: " + ids.get(0).toLowerCase() + "\r\n"));
                }
            }
        }
        // a refusal is an answer before the close, never a silent close
        boolean refused = answer.startsWith("HTTP/1.1 4") || answer.startsWith("HTTP/1.1 505");
        switch (vector.expect()) {
            case REFUSED, CUT -> {
                assertThat(vector + " answered: " + head(answer), refused, is(true));
                assertThat(vector + ": nothing complete reached the backend", forwarded, is(0));
            }
            case FORWARDED -> {
                assertThat(vector + " answered: " + head(answer), answer, startsWith("HTTP/1.1 200"));
                assertThat(vector + ": forwarded once", forwarded, is(pipelined ? 2 : 1));
            }
            case EITHER -> assertThat(vector + " answered " + head(answer) + ", forwarded " + forwarded,
                    (refused && forwarded == 0) || (answer.startsWith("HTTP/1.1 200") && forwarded == 1), is(true));
        }
        // the next client, on the pooled backend connection, gets its own answer and nobody else's
        String own = "GET /next-" + next++;
        String reply = exchange(transport, own + " HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n", 1);
        assertThat(vector + ": the next client's answer", reply, endsWith("\r\n\r\n" + own));
        if (vector.expect() == Expect.REFUSED) {
            // the next client was served on the connection kept before: none was opened or spent
            assertThat(vector + ": refused without taking a backend connection", backend.sizes().size(),
                    is(connections));
        }
    }

    // What only a trusted proxy may say of a client's connection (the router says it in
    // X-Forwarded-For, -Proto and -Host)
    private static boolean forwardingClaim(String name) {
        return Set.of("forwarded", "x-real-ip", "true-client-ip").contains(name)
                || name.startsWith("x-forwarded-") && !Set.of("x-forwarded-for", "x-forwarded-proto",
                        "x-forwarded-host").contains(name);
    }

    // A name a backend that reads '_' as '-' (WSGI, CGI) takes for one the router vouches for
    private static boolean vouchedAlias(String name) {
        String read = name.replace('_', '-');
        return !read.equals(name) && (forwardingClaim(read) || read.startsWith("x-forwarded-")
                || Set.of("host", "content-length", "transfer-encoding", "proxy-authorization", "x-request-id").contains(read));
    }

    private static String post(String path, String headers, String body) {
        return "POST " + path + " HTTP/1.1\r\nHost: x\r\n" + headers + "\r\n\r\n" + body;
    }

    // A 100 Continue before the answer is Helidon's, and harmless
    private static String withoutInterim(String answer) {
        String interim = "HTTP/1.1 100 Continue\r\n\r\n";
        return answer.startsWith(interim) ? answer.substring(interim.length()) : answer;
    }

    private static String head(String answer) {
        int end = answer.indexOf("\r\n");
        return end < 0 ? "[" + answer + "]" : answer.substring(0, end);
    }

    private static Socket open(Transport transport) throws IOException {
        if (transport == Transport.PLAIN) {
            return new Socket("127.0.0.1", router.port());
        }
        SSLSocket socket = (SSLSocket) TestCertificates.trusting(CA).getSocketFactory()
                .createSocket("127.0.0.1", tlsRouter.port());
        socket.setSoTimeout(5_000);
        socket.startHandshake();
        return socket;
    }

    // Writes the bytes, then reads until the router closes, or has sent this many whole answers
    // and then stays quiet a moment (a smuggled answer would follow them).
    private static String exchange(Transport transport, String request, int answers) throws IOException {
        String method = request.substring(0, Math.max(0, request.indexOf(' ')));
        try (Socket socket = open(transport)) {
            socket.setSoTimeout(100);
            socket.getOutputStream().write(request.getBytes(StandardCharsets.ISO_8859_1));
            socket.getOutputStream().flush();
            InputStream in = socket.getInputStream();
            ByteArrayOutputStream all = new ByteArrayOutputStream();
            byte[] buffer = new byte[8192];
            long deadline = System.nanoTime() + 5_000_000_000L;
            while (System.nanoTime() < deadline) {
                try {
                    int n = in.read(buffer);
                    if (n < 0) {
                        break;
                    }
                    all.write(buffer, 0, n);
                } catch (SocketTimeoutException e) {
                    if (Http1Messages.responses(all.toByteArray(), false, method).messages().stream()
                            .filter(m -> m.status() >= 200).count() >= answers) {
                        break;
                    }
                } catch (IOException e) {
                    break; // reset: the router closed with bytes unread
                }
            }
            return all.toString(StandardCharsets.ISO_8859_1);
        }
    }
}
