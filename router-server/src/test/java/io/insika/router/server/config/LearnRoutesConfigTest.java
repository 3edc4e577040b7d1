package io.insika.router.server.config;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Optional;

import io.insika.router.server.routing.LearnSpec;
import io.insika.router.server.session.SessionSeal;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import static org.hamcrest.MatcherAssert.assertThat;
import static org.hamcrest.Matchers.contains;
import static org.hamcrest.Matchers.containsString;
import static org.hamcrest.Matchers.hasItem;
import static org.hamcrest.Matchers.is;
import static org.hamcrest.Matchers.startsWith;

/** {@code routes[].learn} and {@code sessions}: what starts, and what is refused with which message. */
class LearnRoutesConfigTest {

    private static final String MCP_ROUTE = """
            routes:
              - path: /mcp
                learn: { header: Mcp-Session-Id }
            """;

    @TempDir
    Path dir;
    private ConfigFiles files;
    private Path secret;

    @BeforeEach
    void setUp() throws Exception {
        files = new ConfigFiles(dir);
        secret = Files.writeString(dir.resolve("secret"), "a secret of thirty-two bytes or more\n");
    }

    @Test
    void aLearnRouteWithASecretFileLoadsWithItsDefaults() {
        RouterConfig config = files.load("sessions:\n  secret-file: " + secret + "\n" + MCP_ROUTE);

        assertThat(config.routes().getFirst().learn(), is(Optional.of(LearnSpec.header("Mcp-Session-Id"))));
        assertThat(config.routes().getFirst().keys().isEmpty(), is(true));
        assertThat(config.proxy().sessions().isConfigured(), is(true));
    }

    @Test
    void theSecretFileMayComeFromTheEnvironment() {
        RouterConfig config = files.load("""
                routes:
                  - path: /app
                    learn: { cookie: SESSIONID, unknown-owner-status: 410, bad-seal: no-key }
                """, Map.of(Settings.SESSION_SECRET_FILE.variable().orElseThrow(), secret.toString()));

        assertThat(config.routes().getFirst().learn(), is(Optional.of(new LearnSpec(LearnSpec.Carrier.COOKIE,
                "SESSIONID", 410, LearnSpec.BadSeal.NO_KEY))));
        assertThat(config.proxy().sessions().toString(), is(SessionSeal.read(secret, Optional.empty()).toString()));
    }

    @Test
    void aLearnRouteWithoutASecretRefusesToStartAndSaysWhy() {
        List<String> problems = files.problems(MCP_ROUTE);

        assertThat(problems.size(), is(1));
        assertThat(problems.getFirst(), startsWith("routes[0].learn: the router seals the backend"));
        assertThat(problems.getFirst(), containsString("set sessions.secret-file (or INSIKA_ROUTER_SESSION_SECRET_FILE)"));
        assertThat(problems.getFirst(), containsString("any client could pick its backend"));
    }

    @Test
    void aShortOrUnreadableSecretRefusesToStartNamingTheFile() throws Exception {
        Path shortSecret = Files.write(dir.resolve("short"), "too short".getBytes(StandardCharsets.US_ASCII));

        assertThat(files.problems("sessions:\n  secret-file: " + shortSecret + "\n" + MCP_ROUTE), contains(
                "sessions.secret-file: [" + shortSecret + "] secret: 9 bytes (expected: at least 32, such as the output"
                        + " of: head -c 32 /dev/urandom | base64)"));
        assertThat(files.problems("", Map.of(Settings.SESSION_SECRET_FILE.variable().orElseThrow(), dir + "/none")).getFirst(),
                startsWith(Settings.SESSION_SECRET_FILE.variable().orElseThrow() + ": [" + dir + "/none] (expected: a readable file"));
        assertThat(files.problems("sessions:\n  secret-file: " + secret + "\n  previous-secret-file: " + shortSecret)
                .getFirst(), startsWith("sessions.previous-secret-file: [" + shortSecret + "] previous secret: 9 bytes"));
    }

    @Test
    void aRouteHasKeysOrLearnNeverBoth() {
        List<String> problems = files.problems("sessions:\n  secret-file: " + secret + "\n" + """
                routes:
                  - path: /mcp
                    keys: [{type: header, name: X-Session}]
                    on-miss: redirect
                    learn: { header: Mcp-Session-Id }
                """);

        assertThat(problems, hasItem(startsWith("routes[0].keys: [a list] (expected: absent on a route that learns")));
        assertThat(problems, hasItem(startsWith("routes[0].on-miss: [redirect] (expected: absent on a route that learns")));
    }

    @Test
    void aLearnCarrierIsOneHeaderOrCookieTheRouterDoesNotOwn() {
        String head = "sessions:\n  secret-file: " + secret + "\nroutes:\n  - path: /mcp\n    learn: ";

        assertThat(files.problems(head + "{ header: A, cookie: B }"), contains("routes[0].learn: [header and cookie]"
                + " (expected: one carrier: header: NAME (such as Mcp-Session-Id) or cookie: NAME)"));
        assertThat(files.problems(head + "{ unknown-owner-status: 404 }").getFirst(),
                startsWith("routes[0].learn: [neither header nor cookie]"));
        assertThat(files.problems(head + "{ header: Host }").getFirst(), startsWith("routes[0].learn.header: [Host]"));
        assertThat(files.problems(head + "{ header: Cookie }").getFirst(), startsWith("routes[0].learn.header: [Cookie]"));
        assertThat(files.problems(head + "{ cookie: \"a b\" }").getFirst(), startsWith("routes[0].learn.cookie: [a b]"));
        assertThat(files.problems(head + "{ header: Mcp-Session-Id, unknown-owner-status: 200 }").getFirst(),
                startsWith("routes[0].learn.unknown-owner-status: [200] (expected: a status from 400 to 599"));
        assertThat(files.problems(head + "{ header: Mcp-Session-Id, bad-seal: ignore }").getFirst(),
                is("routes[0].learn.bad-seal: [ignore] (expected: reject or no-key)"));
        assertThat(files.problems(head + "{ header: Mcp-Session-Id, bad-sael: reject }").getFirst(),
                startsWith("routes[0].learn.bad-sael: unknown key (expected one of: bad-seal, cookie, header,"));
    }

    @Test
    void twoRoutesMayLearnOneCarrierOnlyWithTheSameRulesSinceEveryRequestIsCheckedByThem() {
        String head = "sessions:\n  secret-file: " + secret + "\nroutes:\n";

        assertThat(files.load(head + """
                  - { path: /mcp, learn: { header: Mcp-Session-Id } }
                  - { path: /v2/mcp, learn: { header: mcp-session-id, bad-seal: reject } }
                """).routes().size(), is(2));
        assertThat(files.problems(head + """
                  - { path: /mcp, learn: { header: Mcp-Session-Id } }
                  - { path: /v2/mcp, learn: { header: mcp-session-id, bad-seal: no-key } }
                """), contains("routes[1].learn: [header mcp-session-id, unknown-owner-status: 404, bad-seal: no-key]"
                + " (expected: the rules an earlier route gives the same carrier, unknown-owner-status: 404,"
                + " bad-seal: reject; a carrier is checked on every request, whatever its path)"));
        assertThat(files.problems(head + """
                  - { path: /app, learn: { cookie: SESSIONID } }
                  - { path: /v2/app, learn: { cookie: sessionid, unknown-owner-status: 410 } }
                """).getFirst(), startsWith("routes[1].learn: [cookie sessionid, unknown-owner-status: 410,"));
    }

    @Test
    void theSecretIsFixedAtStartAReloadThatChangesItIsRestartOnly() throws Exception {
        RouterConfig running = files.load("sessions:\n  secret-file: " + secret + "\n" + MCP_ROUTE);
        Files.writeString(secret, "another secret of thirty-two bytes or more");
        RouterConfig next = files.load("sessions:\n  secret-file: " + secret + "\n" + MCP_ROUTE);

        ConfigChanges change = ConfigChanges.between(running, next);

        assertThat(change.restartOnly(), contains(Settings.SESSION_SECRET_FILE));
        assertThat(ConfigChanges.describe(change.restartOnly(), running, next), startsWith("sessions.secret-file: secret "));
    }
}
