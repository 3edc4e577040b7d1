package io.insika.router.server.interop;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;

import io.insika.router.server.Router;
import io.insika.router.server.testing.PeerProgram;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import static org.hamcrest.MatcherAssert.assertThat;
import static org.hamcrest.Matchers.is;

/**
 * nginx in front of the router with nothing but a stock {@code proxy_pass}: it speaks HTTP/1.0
 * upstream, with {@code Connection: close}, as most nginx configurations in the wild do.
 */
@Timeout(60)
class NginxInFrontTest {

    private static final HttpClient CLIENT = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();

    @TempDir
    Path dir;

    private PeerProgram.Server nodeA;
    private PeerProgram.Server nodeB;
    private Router router;
    private PeerProgram.Server nginx;

    @BeforeEach
    void start() {
        nodeA = ScriptBackend.node(dir, "node-a");
        nodeB = ScriptBackend.node(dir, "node-b");
        router = YamlRouter.start(dir, List.of(nodeA, nodeB), "");
        nginx = PeerProgram.NGINX.listen(dir, "nginx", port -> List.of("-p", dir.toString(), "-e", "stderr",
                "-c", config(port).toString()));
    }

    private Path config(int port) {
        try {
            return Files.writeString(dir.resolve("nginx-" + port + ".conf"), """
                    daemon off;
                    master_process off;
                    worker_processes 1;
                    pid %1$s/nginx.pid;
                    error_log stderr info;
                    events { worker_connections 64; }
                    http {
                        access_log off;
                        client_body_temp_path %1$s/client_body;
                        proxy_temp_path %1$s/proxy;
                        fastcgi_temp_path %1$s/fastcgi;
                        uwsgi_temp_path %1$s/uwsgi;
                        scgi_temp_path %1$s/scgi;
                        server {
                            listen 127.0.0.1:%2$d;
                            location / {
                                proxy_pass http://127.0.0.1:%3$d;
                            }
                        }
                    }
                    """.formatted(dir, port, router.port()));
        } catch (IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
    }

    @AfterEach
    void stop() {
        nginx.close();
        router.close();
        nodeA.close();
        nodeB.close();
    }

    private HttpResponse<String> send(HttpRequest.Builder request) throws IOException, InterruptedException {
        return CLIENT.send(request.build(), HttpResponse.BodyHandlers.ofString());
    }

    private HttpRequest.Builder request(String path) {
        return HttpRequest.newBuilder(URI.create(nginx.url() + path));
    }

    @Test
    void keyedPostsThroughNginxReachTheOwnerOfTheirUserEveryTime() throws Exception {
        Map<String, String> names = Map.of("127.0.0.1:" + nodeA.port(), "node-a", "127.0.0.1:" + nodeB.port(), "node-b");
        for (String user : List.of("alice", "bob", "carol", "dave", "erin", "frank")) {
            String owner = names.get(OwnerQuery.ownerOf(router, user));
            String body = "{\"user\":\"" + user + "\",\"input\":\"hi\"}";
            for (int i = 0; i < 20; i++) {
                HttpResponse<String> answer = send(request("/v1/responses").header("Content-Type", "application/json")
                        .POST(HttpRequest.BodyPublishers.ofString(body)));

                assertThat(answer.body(), answer.statusCode(), is(200));
                assertThat(user + " request " + i, answer.headers().firstValue("X-Backend").orElse("none"), is(owner));
                assertThat(answer.body(), is(body));
            }
        }
    }

    @Test
    void aNodeChunkedAnswerReachesTheClientWholeThroughNginx() throws Exception {
        HttpResponse<String> small = send(request("/chunked"));
        HttpResponse<String> big = send(request("/big?bytes=1048576"));

        assertThat(small.statusCode(), is(200));
        assertThat(small.body(), is("hello world"));
        assertThat(big.statusCode(), is(200));
        assertThat(big.body(), is("x".repeat(1048576)));
    }

    @Test
    void anEventStreamReachesTheClientWholeThroughNginx() throws Exception {
        HttpResponse<String> answer = send(request("/events?quiet=200"));

        assertThat(answer.statusCode(), is(200));
        assertThat(answer.headers().firstValue("Content-Type").orElse("none"), is("text/event-stream"));
        assertThat(answer.body(), is("data: first\n\ndata: second\n\n"));
    }

    @Test
    void aJavaClientOfferingH2cIsAnsweredThroughNginx() throws Exception {
        // Java's HttpClient offers h2c on plain http by default; nginx drops the offer's Upgrade
        // and Connection and forwards its HTTP2-Settings on HTTP/1.0
        HttpClient offering = HttpClient.newHttpClient();
        String body = "{\"user\":\"alice\"}";

        HttpResponse<String> answer = offering.send(request("/v1/responses").header("Content-Type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofString(body)).build(), HttpResponse.BodyHandlers.ofString());

        assertThat(answer.body(), answer.statusCode(), is(200));
        assertThat(answer.body(), is(body));
    }

    @Test
    void upAnswers200ThroughNginx() throws Exception {
        HttpResponse<String> answer = send(request("/up"));

        assertThat(answer.body(), answer.statusCode(), is(200));
    }
}
