package io.insika.router.server.interop;

import java.io.BufferedInputStream;
import java.io.InputStream;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Collectors;
import java.util.stream.IntStream;

import io.insika.router.server.Router;
import io.insika.router.server.testing.Http1Messages;
import io.insika.router.server.testing.PeerProgram;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import static org.hamcrest.MatcherAssert.assertThat;
import static org.hamcrest.Matchers.contains;
import static org.hamcrest.Matchers.empty;
import static org.hamcrest.Matchers.is;
import static org.hamcrest.Matchers.not;

/**
 * Python's http.server behind the router, as its defaults answer: HTTP/1.0, no
 * {@code Content-Length}, the body ended by closing the connection. The router re-frames such an
 * answer for its HTTP/1.1 client, whose connection then outlives it.
 */
@Timeout(60)
class PythonBackendTest {

    @TempDir
    Path dir;

    private PeerProgram.Server python;
    private Router router;

    @BeforeEach
    void start() {
        python = ScriptBackend.python(dir);
        router = YamlRouter.start(dir, List.of(python), "");
    }

    @AfterEach
    void stop() {
        router.close();
        python.close();
    }

    private static String lines(int count) {
        return IntStream.range(0, count).mapToObj(i -> "line " + i + "\n").collect(Collectors.joining());
    }

    @Test
    void closeDelimitedAnswersReachAKeepAliveClientWholeOneAfterAnotherOnOneConnection() throws Exception {
        try (Socket socket = new Socket("127.0.0.1", router.port())) {
            socket.setSoTimeout(10_000);
            InputStream in = new BufferedInputStream(socket.getInputStream());
            for (int count : new int[] {1, 300, 20_000, 0, 7}) {
                socket.getOutputStream().write(("GET /lines?count=" + count + " HTTP/1.1\r\nHost: router.test\r\n\r\n")
                        .getBytes(StandardCharsets.ISO_8859_1));
                Http1Messages.Message answer = Http1Messages.nextResponse(in, "GET");

                assertThat(answer.describe(), answer.status(), is(200));
                List<String> framing = new ArrayList<>(answer.values("transfer-encoding"));
                framing.addAll(answer.values("content-length"));
                assertThat("framed for the client, not ended by a close: " + answer.describe(), framing, not(empty()));
                assertThat(answer.values("connection"), not(contains("close")));
                assertThat(answer.bodyText(), is(lines(count)));
            }
        }
    }
}
