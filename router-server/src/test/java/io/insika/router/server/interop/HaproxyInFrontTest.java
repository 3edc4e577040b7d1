package io.insika.router.server.interop;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.StandardProtocolFamily;
import java.net.URI;
import java.net.UnixDomainSocketAddress;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.ByteBuffer;
import java.nio.channels.Channels;
import java.nio.channels.SocketChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

import io.insika.router.server.Router;
import io.insika.router.server.testing.Eventually;
import io.insika.router.server.testing.PeerProgram;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import static org.hamcrest.MatcherAssert.assertThat;
import static org.hamcrest.Matchers.is;

/**
 * HAProxy in front of the router, checking it as HAProxy checks any HTTP server: its health
 * checks speak HTTP/1.0, {@code OPTIONS /} unless told a method and path.
 */
@Timeout(60)
class HaproxyInFrontTest {

    private static final HttpClient CLIENT = HttpClient.newHttpClient();

    @TempDir
    Path dir;

    private PeerProgram.Server node;
    private Router router;
    private PeerProgram.Server haproxy;

    @BeforeEach
    void start() {
        node = ScriptBackend.node(dir, "node");
        router = YamlRouter.start(dir, List.of(node), "");
    }

    @AfterEach
    void stop() {
        if (haproxy != null) {
            haproxy.close();
        }
        router.close();
        node.close();
    }

    private void startHaproxy(String check) {
        haproxy = PeerProgram.HAPROXY.listen(dir, "haproxy", port -> List.of("-db", "-f", config(port, check).toString()));
    }

    private Path config(int port, String check) {
        try {
            return Files.writeString(dir.resolve("haproxy-" + port + ".cfg"), """
                    global
                        stats socket %s level admin
                    defaults
                        mode http
                        timeout connect 2s
                        timeout client 10s
                        timeout server 10s
                    frontend front
                        bind 127.0.0.1:%d
                        default_backend routers
                    backend routers
                        %s
                        server router 127.0.0.1:%d check inter 100ms rise 1 fall 1
                    """.formatted(statsSocket(), port, check, router.port()));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private Path statsSocket() {
        return dir.resolve("haproxy.sock");
    }

    // The router's row of HAProxy's `show stat`, field by field.
    private Map<String, String> routerStat() {
        try (SocketChannel channel = SocketChannel.open(StandardProtocolFamily.UNIX)) {
            channel.connect(UnixDomainSocketAddress.of(statsSocket()));
            channel.write(ByteBuffer.wrap("show stat\n".getBytes(StandardCharsets.US_ASCII)));
            String[] lines = new String(Channels.newInputStream(channel).readAllBytes(), StandardCharsets.US_ASCII)
                    .split("\n");
            List<String> names = Arrays.asList(lines[0].replaceFirst("^# ", "").split(",", -1));
            for (String line : lines) {
                List<String> values = Arrays.asList(line.split(",", -1));
                if (values.size() > 1 && values.get(0).equals("routers") && values.get(1).equals("router")) {
                    Map<String, String> row = new HashMap<>();
                    for (int i = 0; i < Math.min(names.size(), values.size()); i++) {
                        row.put(names.get(i), values.get(i));
                    }
                    return row;
                }
            }
            return Map.of();
        } catch (IOException e) {
            return Map.of("error", e.toString());
        }
    }

    // UP after a check that passed; a server is UP before its first check, so the status alone proves nothing
    private void awaitCheckedUp() {
        Eventually.await(Duration.ofSeconds(10), () -> {
            Map<String, String> stat = routerStat();
            return "UP".equals(stat.get("status")) && "L7OK".equals(stat.getOrDefault("check_status", "").replace("* ", ""))
                    && "200".equals(stat.get("check_code"));
        }, () -> routerStat() + "\nhaproxy's log:\n" + haproxy.log());
    }

    @Test
    void aRouterCheckedWithGetUpIsMarkedUpAndRequestsThroughHaproxyAreProxied() throws Exception {
        startHaproxy("option httpchk GET /up");

        awaitCheckedUp();
        HttpResponse<String> answer = CLIENT.send(HttpRequest.newBuilder(URI.create(haproxy.url() + "/chunked")).build(),
                HttpResponse.BodyHandlers.ofString());
        assertThat(answer.statusCode(), is(200));
        assertThat(answer.body(), is("hello world"));
        assertThat(answer.headers().firstValue("X-Backend").orElse("none"), is("node"));
    }

    @Test
    void aRouterCheckedWithHaproxysDefaultOptionsCheckIsMarkedUpByItsBackendsAnswer() {
        startHaproxy("option httpchk");

        awaitCheckedUp();
    }
}
