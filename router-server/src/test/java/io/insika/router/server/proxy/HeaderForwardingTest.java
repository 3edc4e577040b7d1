package io.insika.router.server.proxy;

import java.io.ByteArrayOutputStream;
import java.io.InputStream;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.List;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import io.insika.router.server.testing.TestProxySettings;

import static org.hamcrest.MatcherAssert.assertThat;
import static org.hamcrest.Matchers.containsString;
import static org.hamcrest.Matchers.hasKey;
import static org.hamcrest.Matchers.is;
import static org.hamcrest.Matchers.not;
import static org.hamcrest.Matchers.startsWith;

class HeaderForwardingTest {

    private static TestBackend backend;
    private static RouterFixture router;

    @BeforeAll
    static void start() {
        backend = TestBackend.start("only");
        router = RouterFixture.start(List.of(backend));
    }

    @AfterAll
    static void stop() {
        router.close();
        backend.close();
    }

    @Test
    void hopByHopHeadersStayBehindAndEndToEndOnesPassUnchanged() throws Exception {
        String response = exchange("GET /studio/x HTTP/1.1\r\n"
                + "Host: app.example:8443\r\n"
                + "Connection: close, X-Hop-Secret\r\n"
                + "X-Hop-Secret: s3cret\r\n"
                + "Keep-Alive: timeout=5\r\n"
                + "Proxy-Connection: keep-alive\r\n"
                + "TE: trailers\r\n"
                + "X-Trace: abc\r\n"
                + "Authorization: Bearer t\r\n"
                + "\r\n");
        assertThat(response, startsWith("HTTP/1.1 200"));
        assertThat(backend.lastHeaders, not(hasKey("x-hop-secret")));
        assertThat(backend.lastHeaders, not(hasKey("keep-alive")));
        assertThat(backend.lastHeaders, not(hasKey("proxy-connection")));
        assertThat(backend.lastHeaders, not(hasKey("te")));
        assertThat(backend.lastHeaders.get("x-trace"), is(List.of("abc")));
        assertThat(backend.lastHeaders.get("authorization"), is(List.of("Bearer t")));
        assertThat(backend.lastHeaders.get("host"), is(List.of("app.example:8443")));
    }

    @Test
    void forwardedHeadersFromAnUntrustedPeerAreOverwrittenWithWhatTheRouterSaw() throws Exception {
        exchange("GET /studio/x HTTP/1.1\r\nHost: app.example\r\nX-Forwarded-For: 203.0.113.7\r\nConnection: close\r\n\r\n");
        assertThat(backend.lastHeaders.get("x-forwarded-for"), is(List.of("127.0.0.1")));
        assertThat(backend.lastHeaders.get("x-forwarded-proto"), is(List.of("http")));
        assertThat(backend.lastHeaders.get("x-forwarded-host"), is(List.of("app.example")));

        exchange("GET /studio/y HTTP/1.1\r\nHost: inner\r\nX-Forwarded-Proto: https\r\nX-Forwarded-Host: edge\r\nConnection: close\r\n\r\n");
        assertThat(backend.lastHeaders.get("x-forwarded-for"), is(List.of("127.0.0.1")));
        assertThat(backend.lastHeaders.get("x-forwarded-proto"), is(List.of("http")));
        assertThat(backend.lastHeaders.get("x-forwarded-host"), is(List.of("inner")));
    }

    @Test
    void pathAndQueryReachTheBackendByteForByte() throws Exception {
        exchange("GET /studio/a%2Fb%20c/%E2%82%AC?x=%E2%82%AC&y=1+2&z=%2F&empty= HTTP/1.1\r\nHost: h\r\nConnection: close\r\n\r\n");
        assertThat(backend.lastRawPath, is("/studio/a%2Fb%20c/%E2%82%AC"));
        assertThat(backend.lastRawQuery, is("x=%E2%82%AC&y=1+2&z=%2F&empty="));
    }

    @Test
    void headAnd204And304CarryNoBody() throws Exception {
        String head = exchange("HEAD /studio/x HTTP/1.1\r\nHost: h\r\nConnection: close\r\n\r\n");
        assertThat(head, startsWith("HTTP/1.1 200"));
        assertThat(head.substring(head.indexOf("\r\n\r\n") + 4), is(""));

        for (String code : List.of("204", "304")) {
            String response = exchange("GET /status/" + code + " HTTP/1.1\r\nHost: h\r\nConnection: close\r\n\r\n");
            assertThat(response, startsWith("HTTP/1.1 " + code));
            assertThat(response.substring(response.indexOf("\r\n\r\n") + 4), is(""));
        }
    }

    @Test
    void redirectsPassThroughUntouched() throws Exception {
        String response = exchange("GET /status/302 HTTP/1.1\r\nHost: h\r\nConnection: close\r\n\r\n");
        assertThat(response, startsWith("HTTP/1.1 302"));
        assertThat(response, containsString("X-Backend: only"));
    }

    @Test
    void forwardedHeadersFromATrustedProxyAreKeptAndTheForChainGrows() throws Exception {
        try (RouterFixture trusting = RouterFixture.start(List.of(backend),
                TestProxySettings.builder().trustedProxies(TrustedProxies.parse(List.of("127.0.0.0/8", "::1"))).build())) {
            exchange(trusting, "GET /studio/x HTTP/1.1\r\nHost: inner\r\nX-Forwarded-For: 203.0.113.7\r\n"
                    + "X-Forwarded-Proto: https\r\nX-Forwarded-Host: edge.example\r\nConnection: close\r\n\r\n");
        }
        assertThat(backend.lastHeaders.get("x-forwarded-for"), is(List.of("203.0.113.7, 127.0.0.1")));
        assertThat(backend.lastHeaders.get("x-forwarded-proto"), is(List.of("https")));
        assertThat(backend.lastHeaders.get("x-forwarded-host"), is(List.of("edge.example")));
    }

    @Test
    void forwardingClaimsFromAnUntrustedPeerNeverReachTheBackend() throws Exception {
        exchange("GET /studio/x HTTP/1.1\r\nHost: app\r\nForwarded: for=203.0.113.7;proto=https\r\n"
                + "X-Real-IP: 203.0.113.7\r\nTrue-Client-IP: 203.0.113.7\r\nX-Forwarded-Port: 443\r\n"
                + "X-Forwarded-Prefix: /admin\r\nX-Forwarded-Ssl: on\r\nX_Forwarded_For: 203.0.113.7\r\n"
                + "X-Trace: abc\r\nConnection: close\r\n\r\n");
        for (String claim : List.of("forwarded", "x-real-ip", "true-client-ip", "x-forwarded-port",
                "x-forwarded-prefix", "x-forwarded-ssl", "x_forwarded_for")) {
            assertThat(backend.lastHeaders, not(hasKey(claim)));
        }
        assertThat(backend.lastHeaders.get("x-forwarded-for"), is(List.of("127.0.0.1")));
        assertThat(backend.lastHeaders.get("x-trace"), is(List.of("abc")));
    }

    @Test
    void aTrustedProxysClaimsPassAndItsForwardedChainGrowsByTheRoutersElement() throws Exception {
        try (RouterFixture trusting = RouterFixture.start(List.of(backend),
                TestProxySettings.builder().trustedProxies(TrustedProxies.parse(List.of("127.0.0.0/8", "::1"))).build())) {
            exchange(trusting, "GET /studio/x HTTP/1.1\r\nHost: inner:8080\r\n"
                    + "Forwarded: for=203.0.113.7;proto=https;host=edge.example\r\nX-Real-IP: 203.0.113.7\r\n"
                    + "X-Forwarded-Port: 443\r\nX-Forwarded-For: 203.0.113.7\r\nConnection: close\r\n\r\n");
        }
        assertThat(backend.lastHeaders.get("forwarded"),
                is(List.of("for=203.0.113.7;proto=https;host=edge.example, for=127.0.0.1;proto=http;host=\"inner:8080\"")));
        assertThat(backend.lastHeaders.get("x-forwarded-for"), is(List.of("203.0.113.7, 127.0.0.1")));
        assertThat(backend.lastHeaders.get("x-real-ip"), is(List.of("203.0.113.7")));
        assertThat(backend.lastHeaders.get("x-forwarded-port"), is(List.of("443")));
    }

    @Test
    void aNameSpelledWithUnderscoresForOneTheRouterVouchesForNeverPassesFromAnyPeer() throws Exception {
        try (RouterFixture trusting = RouterFixture.start(List.of(backend),
                TestProxySettings.builder().trustedProxies(TrustedProxies.parse(List.of("127.0.0.0/8", "::1"))).build())) {
            exchange(trusting, "GET /studio/x HTTP/1.1\r\nHost: inner\r\nX_Forwarded_For: 203.0.113.7\r\n"
                    + "X_Real_IP: 203.0.113.7\r\nProxy_Authorization: Basic c2VjcmV0\r\nX_Api_Key: k\r\n"
                    + "Connection: close\r\n\r\n");
        }
        for (String alias : List.of("x_forwarded_for", "x_real_ip", "proxy_authorization")) {
            assertThat(backend.lastHeaders, not(hasKey(alias)));
        }
        assertThat(backend.lastHeaders.get("x-forwarded-for"), is(List.of("127.0.0.1")));
        assertThat("a name that vouches for nothing passes", backend.lastHeaders.get("x_api_key"), is(List.of("k")));
    }

    @Test
    void aTrustedProxyListThatDoesNotHoldThePeerTrustsNothing() throws Exception {
        try (RouterFixture trusting = RouterFixture.start(List.of(backend),
                TestProxySettings.builder().trustedProxies(TrustedProxies.parse(List.of("10.0.0.0/8", "fd00::/8"))).build())) {
            exchange(trusting, "GET /studio/x HTTP/1.1\r\nHost: inner\r\nX-Forwarded-For: 203.0.113.7\r\n"
                    + "X-Forwarded-Proto: https\r\nConnection: close\r\n\r\n");
        }
        assertThat(backend.lastHeaders.get("x-forwarded-for"), is(List.of("127.0.0.1")));
        assertThat(backend.lastHeaders.get("x-forwarded-proto"), is(List.of("http")));
    }

    @Test
    void theProxyCredentialNeverReachesTheBackend() throws Exception {
        exchange("GET /studio/x HTTP/1.1\r\nHost: app\r\nProxy-Authorization: Basic c2VjcmV0\r\n"
                + "Authorization: Bearer t\r\nConnection: close\r\n\r\n");
        assertThat(backend.lastHeaders, not(hasKey("proxy-authorization")));
        assertThat(backend.lastHeaders.get("authorization"), is(List.of("Bearer t")));
    }

    @Test
    void connectionCannotRemoveTheHeadersTheRouterVouchesFor() throws Exception {
        exchange("GET /studio/x HTTP/1.1\r\nHost: app\r\nConnection: host, x-forwarded-for, x-forwarded-proto, close\r\n\r\n");
        assertThat(backend.lastHeaders.get("host"), is(List.of("app")));
        assertThat(backend.lastHeaders.get("x-forwarded-for"), is(List.of("127.0.0.1")));
        assertThat(backend.lastHeaders.get("x-forwarded-proto"), is(List.of("http")));
    }

    @Test
    void anAbsoluteFormTargetIsForwardedInOriginFormWithItsAuthorityAsHost() throws Exception {
        String response = exchange("GET http://other.example:8080/studio/abs?q=1 HTTP/1.1\r\nHost: app\r\n"
                + "Connection: close\r\n\r\n");
        assertThat(response, startsWith("HTTP/1.1 200"));
        assertThat(backend.lastRawPath, is("/studio/abs"));
        assertThat(backend.lastRawQuery, is("q=1"));
        assertThat(backend.lastHeaders.get("host"), is(List.of("other.example:8080")));
    }

    @Test
    void aHeaderWithOctetsHelidonCannotKeepIsRefusedNotAltered() throws Exception {
        int hits = backend.hits.get();
        String response = exchange("GET /studio/x HTTP/1.1\r\nHost: app\r\nX-Name: caf\u00c3\u00a9\r\n\r\n");
        assertThat(response, startsWith("HTTP/1.1 400"));
        assertThat(backend.hits.get(), is(hits));
    }

    private static String exchange(String request) throws Exception {
        return exchange(router, request);
    }

    // One request per connection, closed by the router after answering.
    private static String exchange(RouterFixture router, String request) throws Exception {
        try (Socket socket = new Socket("127.0.0.1", router.port())) {
            socket.setSoTimeout(10_000);
            socket.getOutputStream().write(request.getBytes(StandardCharsets.ISO_8859_1));
            InputStream in = socket.getInputStream();
            ByteArrayOutputStream all = new ByteArrayOutputStream();
            in.transferTo(all);
            return all.toString(StandardCharsets.ISO_8859_1);
        }
    }
}
