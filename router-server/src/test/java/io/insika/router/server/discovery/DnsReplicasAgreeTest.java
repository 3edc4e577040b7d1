package io.insika.router.server.discovery;

import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.stream.IntStream;

import io.insika.router.api.Backend;
import io.insika.router.api.PluginOptions;
import io.insika.router.api.RouteStrategy;
import io.insika.router.server.config.DnsBackends;
import io.insika.router.server.plugin.PluginRegistry;
import io.insika.router.server.routing.BackendPool;
import io.insika.router.server.testing.Dnsmasq;
import io.insika.router.server.testing.Eventually;
import io.insika.router.server.testing.FixturePlugins;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import static org.hamcrest.MatcherAssert.assertThat;
import static org.hamcrest.Matchers.allOf;
import static org.hamcrest.Matchers.greaterThan;
import static org.hamcrest.Matchers.is;
import static org.hamcrest.Matchers.lessThan;

/** Two router replicas resolving the same headless Service, with the real ketama strategy. */
class DnsReplicasAgreeTest {

    private static final int KEYS = 10_000;
    private static final List<String> SESSIONS = IntStream.range(0, KEYS).mapToObj(i -> "session-" + i).toList();

    @TempDir
    Path dir;

    @Test
    void replicasPlaceEverySessionAlikeAndAPodJoiningMovesAboutOneNth() {
        try (Dnsmasq dns = Dnsmasq.start(dir, "pods.test")) {
            dns.records("10.42.0.1 pods.test", "10.42.0.2 pods.test", "10.42.0.3 pods.test");
            BackendPool first = pool();
            BackendPool second = pool();
            DnsBackends settings = new DnsBackends("pods.test", 9292, Duration.ofMillis(200),
                    Optional.of(dns.address()), Duration.ofMillis(500));

            try (var a = DnsBackendDiscovery.start(settings, first); var b = DnsBackendDiscovery.start(settings, second)) {
                List<String> before = owners(first);
                assertThat(owners(second), is(before));

                dns.records("10.42.0.4 pods.test", "10.42.0.3 pods.test", "10.42.0.2 pods.test", "10.42.0.1 pods.test");
                Eventually.await(Duration.ofSeconds(10), () -> size(first) == 4 && size(second) == 4,
                        () -> size(first) + " and " + size(second) + " backends");
                List<String> after = owners(first);

                assertThat(owners(second), is(after));
                long moved = IntStream.range(0, KEYS).filter(i -> !before.get(i).equals(after.get(i))).count();
                long movedElsewhere = IntStream.range(0, KEYS)
                        .filter(i -> !before.get(i).equals(after.get(i)) && !after.get(i).equals("10.42.0.4:9292"))
                        .count();
                // ideal 1/4 of the sessions; only ever to the new pod
                assertThat((double) moved / KEYS, allOf(greaterThan(0.15), lessThan(0.35)));
                assertThat(movedElsewhere, is(0L));
            }
        }
    }

    private static BackendPool pool() {
        PluginRegistry registry = FixturePlugins.builtIn();
        RouteStrategy ketama = registry.strategy("ketama")
                .orElseThrow(() -> new AssertionError("ketama is not on the class path (router-strategies)"))
                .create(PluginOptions.empty());
        RouteStrategy rotation = registry.strategy("round-robin").orElseThrow().create(PluginOptions.empty());
        return FixturePlugins.pool(ketama, rotation);
    }

    private static List<String> owners(BackendPool pool) {
        var snapshot = pool.snapshot();
        return SESSIONS.stream().map(key -> snapshot.owner(key).map(Backend::id).orElse("none")).toList();
    }

    private static int size(BackendPool pool) {
        return pool.snapshot().backends().size();
    }
}
