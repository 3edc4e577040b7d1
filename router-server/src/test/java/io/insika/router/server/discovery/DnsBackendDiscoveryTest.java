package io.insika.router.server.discovery;

import java.net.InetSocketAddress;
import java.nio.file.Path;
import java.security.Security;
import java.time.Duration;
import java.util.HashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.logging.Level;
import java.util.stream.IntStream;

import io.insika.router.api.Backend;
import io.insika.router.api.PluginOptions;
import io.insika.router.server.config.DnsBackends;
import io.insika.router.server.plugin.PluginFailureLog;
import io.insika.router.server.routing.BackendPool;
import io.insika.router.server.routing.RoutingSnapshot;
import io.insika.router.server.testing.Dnsmasq;
import io.insika.router.server.testing.Eventually;
import io.insika.router.server.testing.FixturePlugins;
import io.insika.router.server.testing.LogCapture;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import static org.hamcrest.MatcherAssert.assertThat;
import static org.hamcrest.Matchers.empty;
import static org.hamcrest.Matchers.greaterThan;
import static org.hamcrest.Matchers.greaterThanOrEqualTo;
import static org.hamcrest.Matchers.hasItem;
import static org.hamcrest.Matchers.hasSize;
import static org.hamcrest.Matchers.is;
import static org.hamcrest.Matchers.lessThanOrEqualTo;
import static org.hamcrest.Matchers.sameInstance;
import static org.hamcrest.Matchers.startsWith;

/** Discovery against a real dnsmasq whose records change while the router runs. */
class DnsBackendDiscoveryTest {

    private static final String NAME = "pods.test";
    private static final int PORT = 9292;
    private static final Duration INTERVAL = Duration.ofMillis(200);
    /** Generous, for a loaded machine: progress is asserted by resolutions counted, not by time. */
    private static final Duration DEADLINE = Duration.ofSeconds(10);

    @TempDir
    Path dir;
    private Dnsmasq dns;
    private BackendPool pool;
    private LogCapture log;
    private DnsBackendDiscovery discovery;

    @BeforeEach
    void setUp() {
        dns = Dnsmasq.start(dir, NAME);
        pool = FixturePlugins.pool(FixturePlugins.firstBackend(), FixturePlugins.firstBackend());
        log = LogCapture.of(BackendDiscovery.class);
    }

    @AfterEach
    void tearDown() {
        if (discovery != null) {
            discovery.close();
        }
        log.close();
        dns.close();
    }

    @Test
    void theRouterStartsWithTheBackendsDnsAnswersAtStart() {
        dns.records("127.0.0.11 pods.test", "127.0.0.12 pods.test");

        discovery = start(NAME, dns.address());

        assertThat(ids(), is(List.of("127.0.0.11:9292", "127.0.0.12:9292")));
    }

    @Test
    void eachResolvedBackendGetsTheIdAndPublicAddressItsTemplatesMakeFromItsAddress() {
        dns.records("127.0.0.11 pods.test", "127.0.0.12 pods.test");

        discovery = DnsBackendDiscovery.start(new DnsBackends(NAME, PORT, INTERVAL, Optional.of(dns.address()),
                Duration.ofMillis(500), new io.insika.router.server.config.AddressTemplate("actor@{ip-dashed}:{port}"),
                Optional.of(new io.insika.router.server.config.AddressTemplate("https://{ip-dashed}.actors.test"))), pool);

        assertThat(ids(), is(List.of("actor@127-0-0-11:9292", "actor@127-0-0-12:9292")));
        Backend first = pool.snapshot().backends().getFirst();
        assertThat(first.uri().toString(), is("http://127.0.0.11:9292"));
        assertThat(first.publicAddress().orElseThrow().toString(), is("https://127-0-0-11.actors.test"));
    }

    @Test
    void aNewRecordJoinsThePoolWithinOneInterval() {
        dns.records("127.0.0.11 pods.test");
        discovery = start(NAME, dns.address());

        dns.records("127.0.0.11 pods.test", "127.0.0.13 pods.test");
        long resolutionsAtChange = discovery.resolutions();
        awaitIds(List.of("127.0.0.11:9292", "127.0.0.13:9292"));

        // one resolution may have been in flight when the record changed; the next one sees it
        assertThat(discovery.resolutions() - resolutionsAtChange, lessThanOrEqualTo(2L));
        awaitLog(Level.INFO, "Backends from DNS pods.test @" + at(dns.address())
                + " changed: added [127.0.0.13:9292], removed []");
    }

    @Test
    void aRemovedRecordLeavesThePool() {
        dns.records("127.0.0.11 pods.test", "127.0.0.12 pods.test");
        discovery = start(NAME, dns.address());

        dns.records("127.0.0.12 pods.test");

        awaitIds(List.of("127.0.0.12:9292"));
        awaitLog(Level.INFO, "Backends from DNS pods.test @" + at(dns.address())
                + " changed: added [], removed [127.0.0.11:9292]");
    }

    @Test
    void recordsInAnotherOrderChangeNothing() {
        dns.records("127.0.0.11 pods.test", "127.0.0.12 pods.test", "127.0.0.13 pods.test");
        discovery = start(NAME, dns.address());
        RoutingSnapshot before = pool.snapshot();

        dns.records("127.0.0.13 pods.test", "127.0.0.11 pods.test", "127.0.0.12 pods.test");
        awaitResolutions(5);

        // dnsmasq itself answers the same records in a varying order from one query to the next
        assertThat(answerOrders(20).size(), greaterThan(1));
        assertThat(pool.snapshot(), is(sameInstance(before)));
    }

    @Test
    void aStoppedDnsServerKeepsTheLastSetAndWarns() {
        dns.records("127.0.0.11 pods.test", "127.0.0.12 pods.test");
        discovery = start(NAME, dns.address());
        RoutingSnapshot before = pool.snapshot();
        assertThat(discovery.failures(), is(0L));

        dns.stop();
        awaitResolutions(2);

        assertThat(pool.snapshot(), is(sameInstance(before)));
        assertThat(discovery.failures(), greaterThanOrEqualTo(2L)); // exported as insika_router_dns_failures_total
        assertThat(log.messages(Level.WARNING), hasItem(startsWith(
                "Backends from DNS pods.test @" + at(dns.address()) + ": resolution failed (A query failed: ")));
    }

    @Test
    void aNameThatNoLongerExistsKeepsTheLastSetAndWarns() {
        dns.records("127.0.0.11 gone.test");
        discovery = start("gone.test", dns.address());

        dns.records("127.0.0.11 other.test");
        awaitResolutions(2);

        assertThat(ids(), is(List.of("127.0.0.11:9292")));
        assertThat(log.messages(Level.WARNING), hasItem(
                "Backends from DNS gone.test @" + at(dns.address()) + ": resolution failed (A answer NXDOMAIN; AAAA answer NXDOMAIN); keeping the last 1 known"));
    }

    @Test
    void aNameWithNoAddressRecordsEmptiesThePoolAndWarns() {
        dns.records("127.0.0.11 pods.test");
        discovery = start(NAME, dns.address());

        dns.records("127.0.0.11 other.test");

        awaitIds(List.of());
        awaitLog(Level.WARNING, "Backends from DNS pods.test @" + at(dns.address())
                + ": none (the name has no A or AAAA records)");
    }

    @Test
    void aStrategyThatCannotBuildAPickerKeepsTheLastSetWhileDiscoveryGoesOn() {
        pool = new BackendPool(FixturePlugins.registry().strategy(FixturePlugins.TWO_AT_MOST_STRATEGY).orElseThrow()
                .create(PluginOptions.empty()), FixturePlugins.TWO_AT_MOST_STRATEGY, PluginOptions.empty(),
                FixturePlugins.firstBackend());
        dns.records("127.0.0.11 pods.test", "127.0.0.12 pods.test");
        try (LogCapture plugins = LogCapture.of(PluginFailureLog.class)) {
            discovery = start(NAME, dns.address());

            dns.records("127.0.0.11 pods.test", "127.0.0.12 pods.test", "127.0.0.13 pods.test");
            awaitResolutions(4);

            assertThat(ids(), is(List.of("127.0.0.11:9292", "127.0.0.12:9292")));
            assertThat("not a DNS failure", discovery.failures(), is(0L));
            assertThat(pool.buildFailure().orElseThrow().offered(), is(3));
            assertThat("said once, not per resolution", plugins.messages(Level.WARNING), hasSize(1));

            dns.records("127.0.0.13 pods.test");

            awaitIds(List.of("127.0.0.13:9292"));
            assertThat(pool.buildFailure().isPresent(), is(false));
        }
    }

    @Test
    void bothIpv4AndIpv6RecordsBecomeBackends() {
        // documentation and loopback addresses: nothing here is ever connected to
        dns.records("127.0.0.11 pods.test", "2001:db8::1 pods.test", "::1 pods.test");

        discovery = start(NAME, dns.address());

        assertThat(ids(), is(List.of("127.0.0.11:9292", "[2001:db8::1]:9292", "[::1]:9292")));
        assertThat(pool.snapshot().backends().get(1).uri().toString(), is("http://[2001:db8::1]:9292"));
    }

    @Test
    void aServiceTooLargeForOneDatagramIsSeenWhole() {
        // 200 A records are ~3 KB: the UDP answer is truncated and dnsjava asks again over TCP
        String[] records = IntStream.range(0, 200).mapToObj(i -> "127.0.1." + i + " pods.test").toArray(String[]::new);
        dns.records(records);

        discovery = start(NAME, dns.address());

        assertThat(pool.snapshot().backends().size(), is(200));
    }

    @Test
    void theJvmAddressCacheNeverHidesAChange() {
        String previous = Security.getProperty("networkaddress.cache.ttl");
        Security.setProperty("networkaddress.cache.ttl", "-1");
        try {
            dns.records("127.0.0.11 pods.test");
            discovery = start(NAME, dns.address());

            dns.records("127.0.0.12 pods.test");

            awaitIds(List.of("127.0.0.12:9292"));
        } finally {
            Security.setProperty("networkaddress.cache.ttl", previous == null ? "30" : previous);
        }
    }

    @Test
    void anUnreachableServerAtStartLeavesThePoolEmptyAndWarns() {
        InetSocketAddress nobody = dns.address();
        dns.stop();

        discovery = start(NAME, nobody);

        assertThat(pool.snapshot().backends(), is(empty()));
        assertThat(log.messages(Level.WARNING), hasItem(startsWith("Backends from DNS pods.test @" + at(nobody)
                + ": resolution failed (")));
    }

    @Test
    void closingStopsTheResolutions() throws InterruptedException {
        dns.records("127.0.0.11 pods.test");
        discovery = start(NAME, dns.address());
        discovery.close();
        long stoppedAt = discovery.resolutions();

        dns.records("127.0.0.12 pods.test");
        Thread.sleep(INTERVAL.multipliedBy(3).toMillis());

        assertThat(discovery.resolutions(), is(stoppedAt));
        assertThat(ids(), is(List.of("127.0.0.11:9292")));
    }

    private DnsBackendDiscovery start(String name, InetSocketAddress server) {
        return DnsBackendDiscovery.start(new DnsBackends(name, PORT, INTERVAL, Optional.of(server),
                Duration.ofMillis(500)), pool);
    }

    /** The distinct record orders the server gives over a number of queries. */
    private Set<List<String>> answerOrders(int queries) {
        DnsAddressLookup lookup = new DnsAddressLookup(NAME, Optional.of(dns.address()), Duration.ofSeconds(1));
        Set<List<String>> orders = new HashSet<>();
        for (int i = 0; i < queries; i++) {
            DnsAnswer.Addresses answer = (DnsAnswer.Addresses) lookup.resolve().a();
            orders.add(answer.addresses().stream().map(AddressText::of).toList());
        }
        return orders;
    }

    private static String at(InetSocketAddress server) {
        return "127.0.0.1:" + server.getPort();
    }

    private List<String> ids() {
        return pool.snapshot().backends().stream().map(Backend::id).toList();
    }

    private void awaitIds(List<String> expected) {
        Eventually.await(DEADLINE, () -> ids().equals(expected), () -> ids().toString());
    }

    /** Logging follows the pool update, so a test that saw the pool change waits for the line too. */
    private void awaitLog(Level level, String prefix) {
        Eventually.await(DEADLINE, () -> log.messages(level).stream().anyMatch(m -> m.startsWith(prefix)),
                () -> log.messages(level).toString());
    }

    private void awaitResolutions(int more) {
        long target = discovery.resolutions() + more;
        Eventually.await(DEADLINE, () -> discovery.resolutions() >= target, () -> discovery.resolutions() + " resolutions");
    }
}
