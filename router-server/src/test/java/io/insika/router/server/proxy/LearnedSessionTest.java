package io.insika.router.server.proxy;

import java.io.ByteArrayOutputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.Socket;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;

import io.insika.router.server.RouterServer;
import io.insika.router.server.routing.BackendPool;
import io.insika.router.server.routing.LearnSpec;
import io.insika.router.server.routing.RouteSpec;
import io.insika.router.server.routing.RouteTable;
import io.insika.router.server.session.SessionSeal;
import io.insika.router.server.testing.Eventually;
import io.insika.router.server.testing.FixturePlugins;
import io.insika.router.server.testing.Http1Messages;
import io.insika.router.server.testing.RawHttp;
import io.insika.router.server.testing.TestServers;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import io.insika.router.server.testing.TestProxySettings;

import static org.hamcrest.MatcherAssert.assertThat;
import static org.hamcrest.Matchers.containsString;
import static org.hamcrest.Matchers.is;
import static org.hamcrest.Matchers.not;
import static org.hamcrest.Matchers.startsWith;

/**
 * Routes whose key the backend mints ({@code learn}): the id an answer sets reaches the client
 * sealed with its backend, every later request carrying it reaches that backend with the id it
 * minted, and nothing else does. Real minting backends on loopback, the JDK's client or a raw
 * socket in front.
 */
class LearnedSessionTest {

    private static final SessionSeal SEAL = SessionSeal.of(
            "the secret both replicas of this test share".getBytes(StandardCharsets.US_ASCII), Optional.empty());

    private final List<MintingBackend> backends = new ArrayList<>();
    private final List<RouterServer> routers = new ArrayList<>();
    private BackendPool pool;

    @AfterEach
    void stop() {
        routers.forEach(RouterServer::close);
        backends.forEach(MintingBackend::close);
    }

    private RouterServer router(LearnSpec mcp, LearnSpec app, ProxySettings settings) {
        if (backends.isEmpty()) {
            for (int i = 0; i < 3; i++) {
                backends.add(MintingBackend.start("minter-" + i));
            }
            pool = RouterFixture.ketamaPool(backends.stream().map(MintingBackend::backend).toList());
        }
        RouteTable routes = RouteTable.build(List.of(RouteSpec.learning(Set.of(), "/mcp", mcp),
                RouteSpec.learning(Set.of(), "/app", app)), FixturePlugins.builtIn());
        RouterServer router = TestServers.start(routes, pool, TestProxySettings.from(settings).sessions(SEAL).build());
        routers.add(router);
        return router;
    }

    private RouterServer router() {
        return router(LearnSpec.header(MintingBackend.HEADER), LearnSpec.cookie("SESSIONID"), TestProxySettings.DEFAULTS);
    }

    private static HttpResponse<String> send(RouterServer router, String method, String path, String... headers)
            throws Exception {
        HttpRequest.Builder request = HttpRequest.newBuilder(
                java.net.URI.create("http://127.0.0.1:" + router.port() + path));
        if (headers.length > 0) {
            request.headers(headers);
        }
        request.method(method, method.equals("POST") ? HttpRequest.BodyPublishers.ofString("{\"jsonrpc\":\"2.0\"}")
                : HttpRequest.BodyPublishers.noBody());
        return RouterFixture.CLIENT.send(request.build(), HttpResponse.BodyHandlers.ofString());
    }

    private static String sealedId(HttpResponse<String> answer) {
        return answer.headers().firstValue(MintingBackend.HEADER).orElseThrow();
    }

    private MintingBackend named(String name) {
        return backends.stream().filter(b -> b.name.equals(name)).findFirst().orElseThrow();
    }

    @Test
    void everyRequestOfAMintedSessionReachesItsMinterWithTheIdItMinted() throws Exception {
        RouterServer router = router();
        Set<String> minters = new HashSet<>();
        for (int session = 0; session < 6; session++) {
            HttpResponse<String> initialized = send(router, "POST", "/mcp");
            String minter = initialized.headers().firstValue("X-Backend").orElseThrow();
            minters.add(minter);
            String sealed = sealedId(initialized);
            String original = SEAL.open(sealed).orElseThrow().original();

            assertThat(sealed, startsWith("s1."));
            assertThat(original, startsWith(minter + "-session-"));
            for (String method : List.of("POST", "GET", "POST", "DELETE")) {
                HttpResponse<String> answer = send(router, method, "/mcp", MintingBackend.HEADER, sealed,
                        "Accept", "application/json, text/event-stream");

                assertThat(method, answer.statusCode(), is(200));
                assertThat(method, answer.headers().firstValue("X-Backend").orElseThrow(), is(minter));
                assertThat(method, named(minter).lastHeaders.get("mcp-session-id"), is(List.of(original)));
            }
        }
        assertThat("round-robin spread the new sessions", minters.size(), is(3));
    }

    @Test
    void anotherReplicaWithTheSameSecretRoutesTheSessionAlike() throws Exception {
        RouterServer first = router();
        RouterServer second = router();
        HttpResponse<String> initialized = send(first, "POST", "/mcp");

        HttpResponse<String> answer = send(second, "POST", "/mcp", MintingBackend.HEADER, sealedId(initialized));

        assertThat(answer.headers().firstValue("X-Backend"), is(initialized.headers().firstValue("X-Backend")));
        assertThat(answer.statusCode(), is(200));
    }

    @Test
    void aForgedTruncatedOrResealedIdIsRefusedWith400AndReachesNoBackend() throws Exception {
        RouterServer router = router();
        String sealed = sealedId(send(router, "POST", "/mcp"));
        String[] parts = sealed.split("\\.", 4);
        String minter = SEAL.open(sealed).orElseThrow().ownerId();
        String otherOwner = SEAL.seal(backends.stream().map(b -> b.backend().id()).filter(id -> !id.equals(minter))
                .findFirst().orElseThrow(), "x").split("\\.", 4)[1];
        int before = backends.stream().mapToInt(b -> b.hits.get()).sum();

        for (String bad : List.of(parts[0] + "." + parts[1] + "." + parts[2].replace(parts[2].charAt(3),
                        parts[2].charAt(3) == 'A' ? 'B' : 'A') + "." + parts[3],
                sealed.substring(0, sealed.length() - 1),
                parts[0] + "." + otherOwner + "." + parts[2] + "." + parts[3],
                parts[3],
                "s2." + parts[1] + "." + parts[2] + "." + parts[3])) {
            HttpResponse<String> answer = send(router, "POST", "/mcp", MintingBackend.HEADER, bad);

            assertThat(bad, answer.statusCode(), is(400));
            assertThat(bad, answer.body(), containsString("Insika::Router::BadSession"));
        }
        assertThat(backends.stream().mapToInt(b -> b.hits.get()).sum(), is(before));
    }

    @Test
    void withBadSealNoKeyABrokenIdIsPlacedAsIfItHadNoneAndForwardedAsSent() throws Exception {
        RouterServer router = router(new LearnSpec(LearnSpec.Carrier.HEADER, MintingBackend.HEADER, 404,
                LearnSpec.BadSeal.NO_KEY), LearnSpec.cookie("SESSIONID"), TestProxySettings.DEFAULTS);

        HttpResponse<String> answer = send(router, "POST", "/mcp", MintingBackend.HEADER, "made-up-id");

        assertThat(answer.statusCode(), is(404)); // the backend's own: it does not know the id
        assertThat(answer.body(), containsString("does not know made-up-id"));
    }

    @Test
    void theIdAnAnswerSetsIsSealedWithTheBackendThatAnsweredWhateverOwnerTheRequestClaimed() throws Exception {
        RouterServer router = router(new LearnSpec(LearnSpec.Carrier.HEADER, MintingBackend.HEADER, 404,
                LearnSpec.BadSeal.NO_KEY), LearnSpec.cookie("SESSIONID"), TestProxySettings.DEFAULTS);
        String claimed = backends.get(0).backend().id();
        // a seal for backend 0 made with another secret: not ours, so placed round-robin
        String forged = SessionSeal.of("an attacker's own secret, 32 bytes long".getBytes(StandardCharsets.US_ASCII),
                Optional.empty()).seal(claimed, "stolen");

        for (int i = 0; i < 3; i++) {
            HttpResponse<String> answer = send(router, "POST", "/mcp", MintingBackend.HEADER, forged,
                    "X-Mint", "fresh-" + i);
            String answered = answer.headers().firstValue("X-Backend").orElseThrow();
            SessionSeal.Opened opened = SEAL.open(sealedId(answer)).orElseThrow();

            assertThat(opened.original(), is("fresh-" + i));
            assertThat(opened.ownerId(), is(named(answered).backend().id()));
        }
    }

    @Test
    void aSessionWhoseMinterLeftThePoolGetsTheRoutesUnknownOwnerStatusNeverAnotherBackend() throws Exception {
        RouterServer router = router(new LearnSpec(LearnSpec.Carrier.HEADER, MintingBackend.HEADER, 410,
                LearnSpec.BadSeal.REJECT), LearnSpec.cookie("SESSIONID"), TestProxySettings.DEFAULTS);
        HttpResponse<String> initialized = send(router, "POST", "/mcp");
        MintingBackend minter = named(initialized.headers().firstValue("X-Backend").orElseThrow());
        pool.update(backends.stream().filter(b -> b != minter).map(MintingBackend::backend).toList());
        int before = backends.stream().mapToInt(b -> b.hits.get()).sum();

        HttpResponse<String> answer = send(router, "POST", "/mcp", MintingBackend.HEADER, sealedId(initialized));

        assertThat(answer.statusCode(), is(410));
        assertThat(answer.body(), containsString("Insika::Router::SessionGone"));
        assertThat(backends.stream().mapToInt(b -> b.hits.get()).sum(), is(before));
    }

    @Test
    void byDefaultAGoneMinterIsA404AsMcpClientsExpect() throws Exception {
        RouterServer router = router();
        HttpResponse<String> initialized = send(router, "POST", "/mcp");
        MintingBackend minter = named(initialized.headers().firstValue("X-Backend").orElseThrow());
        pool.update(backends.stream().filter(b -> b != minter).map(MintingBackend::backend).toList());

        assertThat(send(router, "GET", "/mcp", MintingBackend.HEADER, sealedId(initialized)).statusCode(), is(404));
    }

    @Test
    void aMinterInThePoolButUnreachableGetsTheRetryEnvelopeAndNoOtherBackendIsTried() throws Exception {
        RouterServer router = router();
        HttpResponse<String> initialized = send(router, "POST", "/mcp");
        MintingBackend minter = named(initialized.headers().firstValue("X-Backend").orElseThrow());
        minter.close();
        int before = backends.stream().filter(b -> b != minter).mapToInt(b -> b.hits.get()).sum();

        HttpResponse<String> answer = send(router, "POST", "/mcp", MintingBackend.HEADER, sealedId(initialized));

        assertThat(answer.statusCode(), is(503));
        assertThat(answer.headers().firstValue("Retry-After"), is(Optional.of("1")));
        assertThat(answer.body(), containsString("\"retryable\":true"));
        assertThat(backends.stream().filter(b -> b != minter).mapToInt(b -> b.hits.get()).sum(), is(before));
    }

    @Test
    void aSessionCookieIsSealedInItsValueAloneAndComesBackAsMinted() throws Exception {
        RouterServer router = router();
        Http1Messages.Message initialized = raw(router, "GET /app HTTP/1.1\r\nHost: app\r\nConnection: close\r\n\r\n");
        List<String> cookies = initialized.values("set-cookie");
        String minter = initialized.values("x-backend").getFirst();

        assertThat(cookies.getFirst(), is("theme=dark; Path=/"));
        String set = cookies.get(1);
        assertThat(set, startsWith("SESSIONID=s1."));
        assertThat(set.endsWith(MintingBackend.COOKIE_ATTRIBUTES), is(true));
        String sealed = set.substring("SESSIONID=".length(), set.length() - MintingBackend.COOKIE_ATTRIBUTES.length());
        String original = SEAL.open(sealed).orElseThrow().original();

        for (String cookie : List.of("SESSIONID=" + sealed, "theme=dark; SESSIONID=" + sealed + "; lang=fi",
                "SESSIONID=\"" + sealed + "\"")) {
            HttpResponse<String> answer = send(router, "GET", "/app", "Cookie", cookie);

            assertThat(cookie, answer.body(), is(minter + " " + original));
            assertThat(named(minter).lastHeaders.get("cookie"), is(List.of(cookie.replace(sealed, original))));
        }
    }

    @Test
    void aCarrierSentTwiceIsRefusedWith400() throws Exception {
        RouterServer router = router();
        String sealed = sealedId(send(router, "POST", "/mcp"));
        String other = sealedId(send(router, "POST", "/mcp"));
        String cookie = "GET /app HTTP/1.1\r\nHost: app\r\nConnection: close\r\n";

        for (String request : List.of(
                "GET /mcp HTTP/1.1\r\nHost: mcp\r\nMcp-Session-Id: " + sealed + "\r\nMcp-Session-Id: " + other
                        + "\r\nConnection: close\r\n\r\n",
                "GET /mcp HTTP/1.1\r\nHost: mcp\r\nMcp-Session-Id: " + sealed + "\r\nmcp-session-id: " + sealed
                        + "\r\nConnection: close\r\n\r\n",
                cookie + "Cookie: SESSIONID=" + sealed + "; SESSIONID=" + other + "\r\n\r\n",
                cookie + "Cookie: SESSIONID=" + sealed + "\r\nCookie: a=b; SESSIONID=" + sealed + "\r\n\r\n")) {
            Http1Messages.Message answer = raw(router, request);

            assertThat(request, answer.status(), is(400));
            assertThat(request, answer.bodyText(), containsString("BadSession"));
        }
    }

    @Test
    void aValueTheBackendSetsThatCannotBeSealedIsABackendFailureNotRelayedUnsealed() throws Exception {
        RouterServer router = router();

        HttpResponse<String> tooLong = send(router, "POST", "/mcp", "X-Mint", "x".repeat(1100));
        HttpResponse<String> notCookieOctets = send(router, "GET", "/app", "X-Mint", "a\\b");

        assertThat(tooLong.statusCode(), is(502));
        assertThat(tooLong.headers().firstValue(MintingBackend.HEADER), is(Optional.empty()));
        assertThat(notCookieOctets.statusCode(), is(502));
    }

    @Test
    void anEmptyCookieValueDeletingTheSessionPassesAsItIs() throws Exception {
        RouterServer router = router();

        HttpResponse<String> answer = send(router, "GET", "/app", "X-Mint", "");

        assertThat(answer.headers().allValues("set-cookie"), is(List.of("SESSIONID=" + MintingBackend.COOKIE_ATTRIBUTES)));
    }

    @Test
    void theAccessLogShowsTheSessionOnlyAsADigest() throws Exception {
        ByteArrayOutputStream log = new ByteArrayOutputStream();
        RouterServer router = router(LearnSpec.header(MintingBackend.HEADER), LearnSpec.cookie("SESSIONID"),
                TestProxySettings.builder().accessLog(log).build());
        String sealed = sealedId(send(router, "POST", "/mcp"));
        String original = SEAL.open(sealed).orElseThrow().original();
        send(router, "POST", "/mcp", MintingBackend.HEADER, sealed);
        send(router, "GET", "/mcp", MintingBackend.HEADER, sealed.substring(0, sealed.length() - 1));

        Eventually.await(java.time.Duration.ofSeconds(5), () -> log.toString(StandardCharsets.UTF_8).lines().count() >= 3,
                () -> log.toString(StandardCharsets.UTF_8));
        String lines = log.toString(StandardCharsets.UTF_8);
        assertThat(lines, containsString("key=" + SessionKeyDigest.of(original)));
        assertThat(lines, containsString("error=bad-session"));
        assertThat(lines, not(containsString(original)));
        assertThat(lines, not(containsString(sealed.split("\\.")[2])));
    }

    @Test
    void aSessionCookieSetInAWebSocketSwitchOrInARefusedUpgradeIsSealedLikeAnyOther() throws Exception {
        try (EchoBackend owner = new EchoBackend("engine-0")) {
            RouteTable routes = RouteTable.build(List.of(RouteSpec.learning(Set.of(), "/app",
                    LearnSpec.cookie("SESSIONID"))), FixturePlugins.builtIn());
            RouterServer router = TestServers.start(routes,
                    RouterFixture.ketamaPool(List.of(owner.backend())), TestProxySettings.builder().sessions(SEAL).build());
            routers.add(router);
            String upgrade = "GET /app HTTP/1.1\r\nHost: router\r\nConnection: Upgrade\r\n"
                    + "Upgrade: websocket\r\nSec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\n"
                    + "Sec-WebSocket-Version: 13\r\n\r\n";
            owner.switchFields = "Set-Cookie: SESSIONID=ws-1; Path=/app; HttpOnly\r\nSet-Cookie: theme=dark\r\n";

            String switched;
            try (Socket socket = new Socket(InetAddress.getLoopbackAddress(), router.port())) {
                socket.setSoTimeout(10_000);
                socket.getOutputStream().write(upgrade.getBytes(StandardCharsets.US_ASCII));
                switched = RawHttp.readHead(socket.getInputStream());
            }

            assertThat(switched, startsWith("HTTP/1.1 101"));
            String sealed = SEAL.seal(owner.backend().id(), "ws-1");
            assertThat("sealed for the backend that switched, attributes kept", switched,
                    containsString("Set-Cookie: SESSIONID=" + sealed + "; Path=/app; HttpOnly\r\n"));
            assertThat("other cookies untouched, each field kept", switched,
                    containsString("Set-Cookie: theme=dark\r\n"));
            assertThat(switched, not(containsString("SESSIONID=ws-1")));

            owner.refusal = "HTTP/1.1 403 Forbidden\r\nSet-Cookie: SESSIONID=ws-2\r\nContent-Length: 2\r\n\r\nno";
            Http1Messages.Message refused = raw(router, upgrade);
            assertThat(refused.status(), is(403));
            assertThat(refused.values("set-cookie"), is(List.of("SESSIONID=" + SEAL.seal(owner.backend().id(),
                    "ws-2"))));

            owner.refusal = "HTTP/1.1 403 Forbidden\r\nSet-Cookie: SESSIONID=not a cookie value\r\n"
                    + "Content-Length: 2\r\n\r\nno";
            assertThat("a value that cannot be sealed is never relayed", raw(router, upgrade).status(), is(502));
        }
    }

    @Test
    void aCarrierIsTheRoutersNotItsRoutesAPathNoRouteMatchesHasItCheckedToo() throws Exception {
        try (TestBackend plain = TestBackend.start("plain")) {
            BackendPool plainPool = RouterFixture.ketamaPool(List.of(plain.backend()));
            RouteTable routes = RouteTable.build(List.of(RouteSpec.learning(Set.of(), "/mcp",
                    LearnSpec.header(MintingBackend.HEADER))), FixturePlugins.builtIn());
            RouterServer router = TestServers.start(routes, plainPool,
                    TestProxySettings.builder().sessions(SEAL).build());
            routers.add(router);
            String sealed = SEAL.seal(plain.backend().id(), "raw-id");

            HttpResponse<String> forged = send(router, "GET", "/other", MintingBackend.HEADER, "raw-id");
            HttpResponse<String> genuine = send(router, "GET", "/other", MintingBackend.HEADER, sealed);

            assertThat(forged.statusCode(), is(400));
            assertThat(genuine.statusCode(), is(200));
            assertThat(plain.hits.get(), is(1));
            assertThat(plain.lastHeaders.get("mcp-session-id"), is(List.of("raw-id")));
        }
    }

    @Test
    void aRouterThatLearnsNothingLeavesTheHeaderAlone() throws Exception {
        try (TestBackend plain = TestBackend.start("plain")) {
            RouterServer router = TestServers.start(RouteTable.build(List.of(), FixturePlugins.builtIn()),
                    RouterFixture.ketamaPool(List.of(plain.backend())), TestProxySettings.DEFAULTS);
            routers.add(router);

            HttpResponse<String> answer = send(router, "GET", "/mcp", MintingBackend.HEADER, "raw-id");

            assertThat(answer.statusCode(), is(200));
            assertThat(plain.lastHeaders.get("mcp-session-id"), is(List.of("raw-id")));
        }
    }

    private static Http1Messages.Message raw(RouterServer router, String request) throws Exception {
        try (Socket socket = new Socket(InetAddress.getLoopbackAddress(), router.port())) {
            OutputStream out = socket.getOutputStream();
            out.write(request.getBytes(StandardCharsets.ISO_8859_1));
            out.flush();
            byte[] bytes = socket.getInputStream().readAllBytes();
            return Http1Messages.responses(bytes, false, "GET").messages().getFirst();
        }
    }
}
