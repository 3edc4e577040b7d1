package io.insika.router.server;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import java.util.Optional;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import io.insika.router.server.config.RouterConfig;
import io.insika.router.server.config.RouterConfigLoader;
import io.insika.router.server.testing.Dnsmasq;
import io.insika.router.server.testing.Eventually;
import io.insika.router.server.testing.FixturePlugins;
import io.insika.router.server.testing.Scrape;

import static org.hamcrest.MatcherAssert.assertThat;
import static org.hamcrest.Matchers.greaterThanOrEqualTo;
import static org.hamcrest.Matchers.is;

/** The whole router, assembled from YAML, exports what its discovery does. */
class RouterMetricsWiringTest {

    @TempDir
    Path dir;

    @Test
    void dnsResolutionsAndFailuresReachTheScrape() throws Exception {
        try (Dnsmasq dns = Dnsmasq.start(dir, "pods.test")) {
            dns.records("127.0.0.11 pods.test", "127.0.0.12 pods.test");
            Path yaml = Files.writeString(dir.resolve("router.yaml"), """
                    server:
                      port: 0
                      admin-port: 0
                    backends:
                      dns:
                        name: pods.test
                        port: 9292
                        interval: 100ms
                        resolver: "127.0.0.1:%d"
                        timeout: 300ms
                    """.formatted(dns.address().getPort()));
            RouterConfig config = new RouterConfigLoader(FixturePlugins.builtIn()).load(Optional.of(yaml), Map.of());
            try (Router router = Router.start(config, FixturePlugins.builtIn())) {
                Scrape answered = Scrape.of(router.adminPort());
                assertThat(answered.sum("insika_router_backends"), is(2.0));
                assertThat(answered.sum("insika_router_dns_resolutions_total"), greaterThanOrEqualTo(1.0));
                assertThat(answered.sum("insika_router_dns_failures_total"), is(0.0));

                dns.stop();
                Eventually.await(Duration.ofSeconds(10),
                        () -> Scrape.of(router.adminPort()).sum("insika_router_dns_failures_total") >= 2.0,
                        () -> Scrape.of(router.adminPort()).matching("insika_router_dns_failures_total").toString());
                assertThat(Scrape.of(router.adminPort()).sum("insika_router_backends"), is(2.0)); // the last set is kept
            }
        }
    }
}
