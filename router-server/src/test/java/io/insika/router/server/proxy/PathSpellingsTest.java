package io.insika.router.server.proxy;

import java.io.OutputStream;
import java.net.InetAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Set;

import io.insika.router.server.RouterServer;
import io.insika.router.server.routing.BackendPool;
import io.insika.router.server.routing.LearnSpec;
import io.insika.router.server.routing.RouteSpec;
import io.insika.router.server.routing.RouteTable;
import io.insika.router.server.session.SessionSeal;
import io.insika.router.server.testing.FixturePlugins;
import io.insika.router.server.testing.Http1Messages;
import io.insika.router.server.testing.RawHttp;
import io.insika.router.server.testing.TestServers;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;
import io.insika.router.server.testing.TestProxySettings;

import static org.hamcrest.MatcherAssert.assertThat;
import static org.hamcrest.Matchers.containsString;
import static org.hamcrest.Matchers.is;
import static org.hamcrest.Matchers.not;
import static org.hamcrest.Matchers.startsWith;

/**
 * Issue 26, item 5: one resource, many spellings. A keyed request reaches its key's owner
 * however its path is spelled, and its backend is sent the path in the normal form the route
 * matched; a learned carrier is checked and sealed on every path, matched by a route or not.
 * Real backends on loopback (the minting ones serve {@code /MCP} and {@code /mcp;x} as
 * {@code /mcp}, as lenient servers do), a raw socket in front so every spelling goes as written.
 */
class PathSpellingsTest {

    private static final SessionSeal SEAL = SessionSeal.of(
            "the secret of the path spellings test".getBytes(StandardCharsets.US_ASCII), Optional.empty());
    private static final List<String> MCP_SPELLINGS = List.of("/mcp/", "//mcp", "/%6dcp", "/./mcp", "/mcp;x", "/MCP",
            "/x/../mcp");

    private final List<AutoCloseable> closing = new ArrayList<>();
    private final List<MintingBackend> minters = new ArrayList<>();

    @AfterEach
    void stop() throws Exception {
        for (AutoCloseable it : closing.reversed()) {
            it.close();
        }
    }

    // three minting backends behind a router that learns Mcp-Session-Id on /mcp, SESSIONID on /app
    private RouterServer mintingRouter() {
        for (int i = 0; i < 3; i++) {
            MintingBackend minter = MintingBackend.start("minter-" + i);
            closing.add(minter);
            minters.add(minter);
        }
        BackendPool pool = RouterFixture.ketamaPool(minters.stream().map(MintingBackend::backend).toList());
        RouteTable routes = RouteTable.build(List.of(
                RouteSpec.learning(Set.of(), "/mcp", LearnSpec.header(MintingBackend.HEADER)),
                RouteSpec.learning(Set.of(), "/app", LearnSpec.cookie("SESSIONID"))), FixturePlugins.builtIn());
        RouterServer router = TestServers.start(routes, pool, TestProxySettings.builder().sessions(SEAL).build());
        closing.add(router);
        return router;
    }

    private MintingBackend minter(String name) {
        return minters.stream().filter(it -> it.name.equals(name)).findFirst().orElseThrow();
    }

    private int minterHits() {
        return minters.stream().mapToInt(it -> it.hits.get()).sum();
    }

    @ParameterizedTest(name = "{0} is sent as {1}")
    @CsvSource({
            "/v1/responses/, /v1/responses/",
            "//v1/responses, /v1/responses",
            "/v1//responses, /v1/responses",
            "/./v1/responses, /v1/responses",
            "/v1/x/../responses, /v1/responses",
            "/%761/%72esponses, /v1/responses",
            "/v1/responses/., /v1/responses/"})
    void everySpellingOfAKeyedPathReachesTheKeysOwnerAndIsSentInNormalForm(String spelling, String sent)
            throws Exception {
        try (RouterFixture router = RouterFixture.withBackends(3, TestProxySettings.DEFAULTS)) {
            TestBackend owner = router.backendOf(router.ownerOf("alice"));
            String body = "{\"user\":\"alice\"}";

            // three in a row: round-robin would have sent at least two elsewhere
            for (int i = 0; i < 3; i++) {
                Http1Messages.Message answer = raw(router.port(), "POST " + spelling + " HTTP/1.1\r\nHost: r\r\n"
                        + "Content-Type: application/json\r\nContent-Length: " + body.length()
                        + "\r\nConnection: close\r\n\r\n" + body);

                assertThat(answer.values("x-backend"), is(List.of(owner.name)));
                assertThat(owner.lastRawPath, is(sent));
            }
        }
    }

    @Test
    void theQueryGoesAsSentBesideANormalizedPath() throws Exception {
        try (RouterFixture router = RouterFixture.withBackends(1, TestProxySettings.DEFAULTS)) {
            raw(router.port(), "GET //studio/./a%2Fb/%7e?x=%2e%2E/&y=//z HTTP/1.1\r\nHost: r\r\nConnection: close\r\n\r\n");

            TestBackend backend = router.backends.getFirst();
            assertThat(backend.lastRawPath, is("/studio/a%2Fb/~"));
            assertThat(backend.lastRawQuery, is("x=%2e%2E/&y=//z"));
        }
    }

    @Test
    void everySpellingOfTheMcpPathReachesTheSessionsMinterWithTheIdItMinted() throws Exception {
        RouterServer router = mintingRouter();
        Http1Messages.Message initialized = raw(router.port(), request("POST", "/mcp"));
        String sealed = initialized.values("mcp-session-id").getFirst();
        String minter = initialized.values("x-backend").getFirst();
        String original = SEAL.open(sealed).orElseThrow().original();

        for (String spelling : MCP_SPELLINGS) {
            for (int i = 0; i < 3; i++) {
                Http1Messages.Message answer = raw(router.port(), request("POST", spelling,
                        MintingBackend.HEADER + ": " + sealed));

                assertThat(spelling, answer.status(), is(200));
                assertThat(spelling, answer.bodyText(), is(minter + " " + original));
                assertThat(spelling, minter(minter).lastHeaders.get("mcp-session-id"), is(List.of(original)));
            }
        }
    }

    @Test
    void aForgedUnsealedIdIsRefusedOnEverySpellingAndOnPathsNoRouteMatches() throws Exception {
        RouterServer router = mintingRouter();
        String minted = raw(router.port(), request("POST", "/mcp")).values("mcp-session-id").getFirst();
        String unsealed = SEAL.open(minted).orElseThrow().original(); // a real session's id, without its seal
        int before = minterHits();

        List<String> paths = new ArrayList<>(MCP_SPELLINGS);
        paths.addAll(List.of("/other", "/", "/v1/responses"));
        for (String path : paths) {
            Http1Messages.Message answer = raw(router.port(), request("POST", path,
                    MintingBackend.HEADER + ": " + unsealed));

            assertThat(path, answer.status(), is(400));
            assertThat(path, answer.bodyText(), containsString("Insika::Router::BadSession"));
        }
        assertThat("no backend saw the forged id", minterHits(), is(before));
    }

    @ParameterizedTest
    @ValueSource(strings = {"/MCP", "/mcp;x", "/mcp/", "//mcp"})
    void anIdMintedOnAnOddSpellingComesBackSealedAndLeadsBackToItsMinter(String spelling) throws Exception {
        RouterServer router = mintingRouter();

        Http1Messages.Message initialized = raw(router.port(), request("POST", spelling));
        String sealed = initialized.values("mcp-session-id").getFirst();
        SessionSeal.Opened opened = SEAL.open(sealed).orElseThrow();
        String minter = initialized.values("x-backend").getFirst();

        assertThat(opened.ownerId(), is(minter(minter).backend().id()));
        assertThat(opened.original(), startsWith(minter + "-session-"));
        Http1Messages.Message next = raw(router.port(), request("GET", "/mcp", MintingBackend.HEADER + ": " + sealed,
                "Accept: text/event-stream"));
        assertThat(next.status(), is(200));
        assertThat(next.bodyText(), containsString(minter + " " + opened.original()));
    }

    @Test
    void theCarrierHeaderSpelledWithUnderscoresIsRefusedAsWsgiServersReadItAsTheCarrier() throws Exception {
        RouterServer router = mintingRouter();
        String sealed = raw(router.port(), request("POST", "/mcp")).values("mcp-session-id").getFirst();
        int before = minterHits();

        for (List<String> fields : List.of(List.of("Mcp_Session_Id: forged"),
                List.of("mcp_session-id: " + sealed),
                List.of(MintingBackend.HEADER + ": " + sealed, "Mcp_Session_Id: forged"))) {
            Http1Messages.Message answer = raw(router.port(), request("POST", "/mcp", fields.toArray(String[]::new)));

            assertThat(fields.toString(), answer.status(), is(400));
            assertThat(fields.toString(), answer.bodyText(), containsString("Insika::Router::BadSession"));
        }
        assertThat(minterHits(), is(before));
    }

    @Test
    void anIdAnyBackendSetsOnAnyPathIsSealed() throws Exception {
        RouterServer router = mintingRouter();

        Http1Messages.Message answer = raw(router.port(), request("GET", "/elsewhere", "X-Mint: set-anywhere"));

        assertThat(answer.status(), is(404)); // the backend's own: it serves no /elsewhere
        SessionSeal.Opened opened = SEAL.open(answer.values("mcp-session-id").getFirst()).orElseThrow();
        assertThat(opened.original(), is("set-anywhere"));
        assertThat(opened.ownerId(), is(minter(answer.values("x-backend").getFirst()).backend().id()));
    }

    @Test
    void aSessionCookieIsCheckedInAnyCaseOfItsNameAndAfterAComma() throws Exception {
        RouterServer router = mintingRouter();
        Http1Messages.Message initialized = raw(router.port(), request("GET", "/app"));
        String set = initialized.values("set-cookie").get(1);
        String sealed = set.substring("SESSIONID=".length(), set.indexOf(';'));
        String original = SEAL.open(sealed).orElseThrow().original();
        int before = minterHits();

        for (String cookie : List.of("sessionid=" + original, "a=b, SESSIONID=" + original, "a=b,SESSIONID=" + original,
                "SessionId=forged", "SESSIONID=" + sealed + ", sessionid=" + sealed,
                "SESSIONID=" + sealed + "; a=b, SESSIONID=" + original)) {
            for (String path : List.of("/app", "/APP", "/other")) {
                Http1Messages.Message answer = raw(router.port(), request("GET", path, "Cookie: " + cookie));

                assertThat(cookie + " on " + path, answer.status(), is(400));
                assertThat(cookie + " on " + path, answer.bodyText(), containsString("Insika::Router::BadSession"));
            }
        }
        assertThat("no backend saw a forged or doubled cookie", minterHits(), is(before));
    }

    @Test
    void aSealedCookieInAnyCaseOrAfterACommaReachesItsMinterAsMinted() throws Exception {
        RouterServer router = mintingRouter();
        Http1Messages.Message initialized = raw(router.port(), request("GET", "/app"));
        String minter = initialized.values("x-backend").getFirst();
        String set = initialized.values("set-cookie").get(1);
        String sealed = set.substring("SESSIONID=".length(), set.indexOf(';'));
        String original = SEAL.open(sealed).orElseThrow().original();

        for (String cookie : List.of("a=b, SESSIONID=" + sealed, "a=b,SESSIONID=" + sealed + ";c=d",
                "sessionid=" + sealed)) {
            for (String path : List.of("/app", "/APP/", "/other")) {
                Http1Messages.Message answer = raw(router.port(), request("GET", path, "Cookie: " + cookie));

                assertThat(cookie + " on " + path, answer.values("x-backend"), is(List.of(minter)));
                assertThat(cookie + " on " + path, minter(minter).lastHeaders.get("cookie"),
                        is(List.of(cookie.replace(sealed, original))));
            }
        }
    }

    @Test
    void aCookieTheBackendSetsIsSealedInAnyCaseOfItsNameAndRefusedAfterAComma() throws Exception {
        RouterServer router = mintingRouter();

        Http1Messages.Message lower = raw(router.port(), request("GET", "/app", "X-Set-Cookie: sessionid=m-1; Path=/"));
        Http1Messages.Message afterComma = raw(router.port(), request("GET", "/app",
                "X-Set-Cookie: theme=dark, SESSIONID=m-2"));

        String owner = minter(lower.values("x-backend").getFirst()).backend().id();
        assertThat(lower.values("set-cookie"), is(List.of("sessionid=" + SEAL.seal(owner, "m-1") + "; Path=/")));
        assertThat(afterComma.status(), is(502));
        assertThat(afterComma.values("set-cookie"), is(List.of()));
    }

    @Test
    void everyCarrierAWebSocketSwitchSetsIsSealedWhateverThePath() throws Exception {
        EchoBackend owner = new EchoBackend("engine-0");
        closing.add(owner);
        RouteTable routes = RouteTable.build(List.of(
                RouteSpec.learning(Set.of(), "/mcp", LearnSpec.header(MintingBackend.HEADER)),
                RouteSpec.learning(Set.of(), "/app", LearnSpec.cookie("SESSIONID"))), FixturePlugins.builtIn());
        RouterServer router = TestServers.start(routes, RouterFixture.ketamaPool(List.of(owner.backend())),
                TestProxySettings.builder().sessions(SEAL).build());
        closing.add(router);
        owner.switchFields = "Mcp-Session-Id: ws-h\r\nSet-Cookie: SESSIONID=ws-c; Path=/\r\nSet-Cookie: theme=dark\r\n";

        String switched;
        try (Socket socket = new Socket(InetAddress.getLoopbackAddress(), router.port())) {
            socket.setSoTimeout(10_000);
            socket.getOutputStream().write(("GET /ws HTTP/1.1\r\nHost: router\r\nConnection: Upgrade\r\n"
                    + "Upgrade: websocket\r\nSec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\n"
                    + "Sec-WebSocket-Version: 13\r\n\r\n").getBytes(StandardCharsets.US_ASCII));
            switched = RawHttp.readHead(socket.getInputStream());
        }

        assertThat(switched, startsWith("HTTP/1.1 101"));
        assertThat(switched, containsString("Mcp-Session-Id: " + SEAL.seal(owner.backend().id(), "ws-h") + "\r\n"));
        assertThat(switched, containsString("Set-Cookie: SESSIONID=" + SEAL.seal(owner.backend().id(), "ws-c")
                + "; Path=/\r\n"));
        assertThat(switched, containsString("Set-Cookie: theme=dark\r\n"));
        assertThat(switched, not(containsString(": ws-h")));
    }

    private static String request(String method, String path, String... fields) {
        StringBuilder text = new StringBuilder(method).append(' ').append(path).append(" HTTP/1.1\r\nHost: r\r\n");
        for (String field : fields) {
            text.append(field).append("\r\n");
        }
        String body = method.equals("POST") ? "{\"jsonrpc\":\"2.0\"}" : "";
        if (!body.isEmpty()) {
            text.append("Content-Type: application/json\r\nContent-Length: ").append(body.length()).append("\r\n");
        }
        return text.append("Connection: close\r\n\r\n").append(body).toString();
    }

    private static Http1Messages.Message raw(int port, String request) throws Exception {
        try (Socket socket = new Socket(InetAddress.getLoopbackAddress(), port)) {
            socket.setSoTimeout(10_000);
            OutputStream out = socket.getOutputStream();
            out.write(request.getBytes(StandardCharsets.ISO_8859_1));
            out.flush();
            byte[] bytes = socket.getInputStream().readAllBytes();
            return Http1Messages.responses(bytes, false, request.substring(0, request.indexOf(' ')))
                    .messages().getFirst();
        }
    }
}
