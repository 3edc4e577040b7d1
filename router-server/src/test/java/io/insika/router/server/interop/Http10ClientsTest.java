package io.insika.router.server.interop;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Locale;
import java.util.Map;

import io.insika.router.server.Router;
import io.insika.router.server.testing.PeerProgram;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import static org.hamcrest.MatcherAssert.assertThat;
import static org.hamcrest.Matchers.containsString;
import static org.hamcrest.Matchers.endsWith;
import static org.hamcrest.Matchers.is;
import static org.hamcrest.Matchers.not;

/**
 * Clients that speak HTTP/1.0 to the router: {@code curl --http1.0}, and ApacheBench, which
 * knows no other version (with {@code -k} it asks for keep-alive the HTTP/1.0 way).
 */
@Timeout(90)
class Http10ClientsTest {

    private static final Duration LIMIT = Duration.ofSeconds(60);
    private static final String BODY = "{\"user\":\"alice\",\"input\":\"hi\"}";

    @TempDir
    Path dir;

    private PeerProgram.Server nodeA;
    private PeerProgram.Server nodeB;
    private Router router;

    @BeforeEach
    void start() {
        nodeA = ScriptBackend.node(dir, "node-a");
        nodeB = ScriptBackend.node(dir, "node-b");
        router = YamlRouter.start(dir, List.of(nodeA, nodeB), "");
    }

    @AfterEach
    void stop() {
        router.close();
        nodeA.close();
        nodeB.close();
    }

    private String url(String path) {
        return "http://127.0.0.1:" + router.port() + path;
    }

    private String alicesOwner() throws Exception {
        return Map.of("127.0.0.1:" + nodeA.port(), "node-a", "127.0.0.1:" + nodeB.port(), "node-b")
                .get(OwnerQuery.ownerOf(router, "alice"));
    }

    // ab's summary, asserted whole: every request completed, none failed or answered other than
    // 2xx, and each answer had its whole body (ab counts a connection closed with no answer as
    // complete, with 0 bytes)
    private static void allAnswered(PeerProgram.Run ab, int requests, int bodyLength) {
        assertThat(ab.output(), ab.status(), is(0));
        assertThat(ab.output(), summary(ab, "Complete requests"), is(String.valueOf(requests)));
        assertThat(ab.output(), summary(ab, "Failed requests"), is("0"));
        assertThat(ab.output(), not(containsString("Non-2xx responses")));
        assertThat(ab.output(), summary(ab, "Document Length"), is(bodyLength + " bytes"));
        assertThat(ab.output(), summary(ab, "HTML transferred"), is(requests * bodyLength + " bytes"));
    }

    // a line of ab's summary, such as "Failed requests:        0": its value
    private static String summary(PeerProgram.Run ab, String name) {
        return ab.output().lines().filter(line -> line.startsWith(name + ":")).findFirst()
                .map(line -> line.substring(name.length() + 1).strip()).orElse("(no " + name + " line)");
    }

    @Test
    void curlHttp10GetsUpAnswered200() {
        PeerProgram.Run curl = PeerProgram.CURL.run(LIMIT, "--http1.0", "-sS", "-o", "/dev/null", "-w", "%{http_code}",
                url("/up"));

        assertThat(curl.output(), curl.status(), is(0));
        assertThat(curl.output(), is("200"));
    }

    @Test
    void curlHttp10KeyedPostReachesTheOwnerOfItsUserWhole() throws Exception {
        PeerProgram.Run curl = PeerProgram.CURL.run(LIMIT, "--http1.0", "-sS", "-i", "-H",
                "Content-Type: application/json", "--data-binary", BODY, url("/v1/responses"));

        assertThat(curl.output(), curl.status(), is(0));
        assertThat(curl.output(), curl.output().matches("(?s)HTTP/1\\.[01] 200 .*"), is(true));
        assertThat(curl.output().toLowerCase(Locale.ROOT), containsString("x-backend: " + alicesOwner()));
        assertThat(curl.output(), endsWith("\r\n\r\n" + BODY));
    }

    @Test
    void abGetsEveryAnswerOnANewConnectionEach() {
        allAnswered(PeerProgram.AB.run(LIMIT, "-q", "-s", "10", "-n", "200", "-c", "4", url("/up")), 200,
                "OK".length());
        allAnswered(PeerProgram.AB.run(LIMIT, "-q", "-s", "10", "-n", "200", "-c", "4", url("/chunked")), 200,
                "hello world".length());
    }

    @Test
    void abKeyedPostsAreAllAnswered() throws Exception {
        Path body = Files.writeString(dir.resolve("body.json"), BODY);

        allAnswered(PeerProgram.AB.run(LIMIT, "-q", "-s", "10", "-n", "200", "-c", "4", "-p", body.toString(),
                "-T", "application/json", url("/v1/responses")), 200, BODY.length());
    }

    @Test
    void abWithKeepAliveGetsEveryAnswerOnConnectionsKeptOpen() {
        PeerProgram.Run ab = PeerProgram.AB.run(LIMIT, "-q", "-k", "-s", "10", "-n", "200", "-c", "4", url("/length"));

        allAnswered(ab, 200, "hello world".length());
        assertThat(ab.output(), summary(ab, "Keep-Alive requests"), is("200"));
    }
}
