package io.insika.router.server.proxy;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.URI;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;

import io.insika.router.api.Backend;
import io.insika.router.api.Picker;
import io.insika.router.api.PluginOptions;
import io.insika.router.server.RouterServer;
import io.insika.router.server.plugin.PluginRegistry;
import io.insika.router.server.routing.BackendPool;
import io.insika.router.server.routing.ExtractorSpec;
import io.insika.router.server.routing.RouteSpec;
import io.insika.router.server.routing.RouteTable;
import io.insika.router.server.testing.FixturePlugins;
import io.insika.router.server.testing.Http1Messages;
import io.insika.router.server.testing.TestServers;
import io.insika.router.server.token.RouteToken;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import io.insika.router.server.testing.TestProxySettings;

import static io.insika.router.server.proxy.RouterFixture.CLIENT;
import static org.hamcrest.MatcherAssert.assertThat;
import static org.hamcrest.Matchers.is;
import static org.hamcrest.Matchers.lessThan;

/**
 * Locality as the seed measures it: N actor hosts on loopback, each deciding with the
 * cluster's placement function (rendezvous over the members' own ids) whether a call it gets
 * is for an actor it owns, and 1000 actors called through the router with their route tokens.
 * When the router places by the same function over the same member ids, every call is local;
 * placed over {@code host:port} instead, about 1/N are, the seed's anti-pattern.
 */
class ActorLocalityTest {

    private static final int ACTORS = 1000;
    private static final PluginRegistry PLUGINS = FixturePlugins.builtIn();

    @ParameterizedTest(name = "N = {0}")
    @ValueSource(ints = {2, 10, 50, 100})
    void everyCallIsLocalWhenTheRouterPlacesOverTheClustersMemberIds(int hosts) throws Exception {
        double local = localFraction(hosts, true);
        System.out.printf("locality N=%d, member ids at the edge: %.2f%n", hosts, local);
        assertThat(local, is(1.0));
    }

    @ParameterizedTest(name = "N = {0}")
    @ValueSource(ints = {10, 50, 100})
    void aboutOneCallInNIsLocalWhenTheEdgeHashesOtherIdsThanTheCluster(int hosts) throws Exception {
        double local = localFraction(hosts, false);
        System.out.printf("locality N=%d, host:port at the edge: %.2f (1/N = %.2f)%n", hosts, local, 1.0 / hosts);
        assertThat(local, lessThan(3.0 / hosts + 0.05));
    }

    @Test
    void withTwoHostsAndOtherIdsAboutHalfTheCallsAreLocal() throws Exception {
        double local = localFraction(2, false);
        System.out.printf("locality N=2, host:port at the edge: %.2f%n", local);
        assertThat(local > 0.35 && local < 0.65, is(true));
    }

    private static double localFraction(int count, boolean memberIdsAtTheEdge) throws Exception {
        List<ActorHost> hosts = new ArrayList<>();
        try {
            List<Backend> members = new ArrayList<>();
            for (int i = 0; i < count; i++) {
                ActorHost host = new ActorHost("actor-host-" + i);
                hosts.add(host);
                members.add(Backend.parse("http://127.0.0.1:" + host.port()).withId(host.memberId));
            }
            Picker cluster = rendezvous().picker(members);
            hosts.forEach(host -> host.cluster = cluster);
            List<Backend> edge = memberIdsAtTheEdge ? members
                    : members.stream().map(m -> Backend.parse(m.uri().toString())).toList();
            BackendPool pool = FixturePlugins.pool(rendezvous(),
                    PLUGINS.strategy("round-robin").orElseThrow().create(PluginOptions.empty()));
            pool.update(edge);
            try (RouterServer router = TestServers.start(actorRoutes(), pool, TestProxySettings.DEFAULTS)) {
                int local = 0;
                for (int actor = 0; actor < ACTORS; actor++) {
                    if (call(router, RouteToken.hash("Counter/" + actor)).equals("local")) {
                        local++;
                    }
                }
                return local / (double) ACTORS;
            }
        } finally {
            hosts.forEach(ActorHost::close);
        }
    }

    private static io.insika.router.api.RouteStrategy rendezvous() {
        return PLUGINS.strategy("rendezvous").orElseThrow().create(PluginOptions.empty());
    }

    private static RouteTable actorRoutes() {
        return RouteTable.build(List.of(new RouteSpec(Set.of("POST"), "/_sigx/actor/r/{token}/*", List.of(
                new ExtractorSpec("header", PluginOptions.of("routes[0].keys[0]", Map.of("name", "x-sigx-actor-route"))),
                new ExtractorSpec("path-segment", PluginOptions.of("routes[0].keys[1]", Map.of("parameter", "token")))))),
                PLUGINS);
    }

    private static String call(RouterServer router, String token) throws Exception {
        HttpResponse<String> answer = CLIENT.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + router.port()
                        + "/_sigx/actor/r/" + token + "/Counter%23increment"))
                .header("x-sigx-actor-route", token)
                .POST(HttpRequest.BodyPublishers.ofString("{\"actor\":\"Counter\"}")).build(),
                HttpResponse.BodyHandlers.ofString());
        assertThat(answer.statusCode(), is(200));
        return answer.body();
    }

    /**
     * An actor host that only decides locality: for a call's token it asks the cluster's
     * placement which member owns it, and answers {@code local} when that is itself.
     */
    private static final class ActorHost implements AutoCloseable {
        final String memberId;
        volatile Picker cluster;
        private final ServerSocket server;
        private final Thread acceptor;

        ActorHost(String memberId) throws IOException {
            this.memberId = memberId;
            this.server = new ServerSocket(0, 200, InetAddress.getLoopbackAddress());
            this.acceptor = Thread.ofVirtual().start(() -> {
                while (!server.isClosed()) {
                    try {
                        Socket socket = server.accept();
                        Thread.ofVirtual().start(() -> serve(socket));
                    } catch (IOException e) {
                        return;
                    }
                }
            });
        }

        int port() {
            return server.getLocalPort();
        }

        private void serve(Socket socket) {
            try (socket) {
                socket.setTcpNoDelay(true);
                InputStream in = new java.io.BufferedInputStream(socket.getInputStream());
                OutputStream out = socket.getOutputStream();
                for (Http1Messages.Message call = Http1Messages.nextRequest(in); call != null;
                     call = Http1Messages.nextRequest(in)) {
                    String path = call.startLine().split(" ")[1];
                    String token = path.split("/")[4]; // /_sigx/actor/r/{token}/{symbol}
                    byte[] body = (cluster.pick(token).orElseThrow().id().equals(memberId) ? "local" : "remote")
                            .getBytes(StandardCharsets.US_ASCII);
                    out.write(("HTTP/1.1 200 OK\r\nContent-Length: " + body.length + "\r\n\r\n"
                            + new String(body, StandardCharsets.US_ASCII)).getBytes(StandardCharsets.US_ASCII));
                    out.flush();
                }
            } catch (IOException e) {
                // the router closed the connection
            }
        }

        @Override
        public void close() {
            try {
                server.close();
                acceptor.join(5_000); // until then, the parked accept may still take a connection
            } catch (IOException ignored) {
                // closing is all that was wanted
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
    }
}
