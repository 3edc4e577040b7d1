package io.insika.router.server.discovery;

import java.net.InetSocketAddress;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.logging.Level;

import io.insika.router.api.Backend;
import io.insika.router.server.config.DnsBackends;
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
import static org.hamcrest.Matchers.greaterThanOrEqualTo;
import static org.hamcrest.Matchers.hasItem;
import static org.hamcrest.Matchers.is;
import static org.hamcrest.Matchers.sameInstance;
import static org.hamcrest.Matchers.startsWith;

/**
 * A and AAAA are asked and trusted separately, against a real dnsmasq that fails one family
 * only: a failure of one never discards the other's answer (issue 27: a dnsmasq refusing AAAA
 * while serving A records left the router with no backends).
 */
class DnsAddressFamiliesTest {

    /** Outside dnsmasq's own {@code .test}: the family the hosts file lacks is REFUSED. */
    private static final String FORWARDED = "pods.forwarded";
    private static final String LOCAL = "pods.test";
    private static final int PORT = 9292;
    private static final Duration INTERVAL = Duration.ofMillis(200);
    private static final Duration DEADLINE = Duration.ofSeconds(10);

    @TempDir
    Path dir;
    private Dnsmasq dns;
    private BackendPool pool;
    private LogCapture log;
    private DnsBackendDiscovery discovery;

    @BeforeEach
    void setUp() {
        pool = FixturePlugins.pool(FixturePlugins.firstBackend(), FixturePlugins.firstBackend());
        log = LogCapture.of(BackendDiscovery.class);
    }

    @AfterEach
    void tearDown() {
        if (discovery != null) {
            discovery.close();
        }
        log.close();
        if (dns != null) {
            dns.close();
        }
    }

    @Test
    void aRefusedAaaaQueryLeavesTheARecordsAsBackends() {
        dns = Dnsmasq.start(dir);
        dns.records("127.0.0.11 pods.forwarded", "127.0.0.12 pods.forwarded");

        discovery = start(FORWARDED);

        assertThat(ids(), is(List.of("127.0.0.11:9292", "127.0.0.12:9292")));
        assertThat(discovery.failures(), is(0L));
    }

    @Test
    void aRefusedAQueryLeavesTheAaaaRecordsAsBackends() {
        // documentation and loopback addresses: nothing here is ever connected to
        dns = Dnsmasq.start(dir);
        dns.records("::1 pods.forwarded", "2001:db8::1 pods.forwarded");

        discovery = start(FORWARDED);

        assertThat(ids(), is(List.of("[2001:db8::1]:9292", "[::1]:9292")));
        assertThat(discovery.failures(), is(0L));
    }

    @Test
    void aFamilyThatStartsFailingKeepsItsLastAddressesWhileTheOtherFamilyChanges() {
        dns = Dnsmasq.start(dir);
        dns.records("127.0.0.11 pods.forwarded", "::1 pods.forwarded");
        discovery = start(FORWARDED);

        // without its AAAA record the name's AAAA query is refused, not answered empty
        dns.records("127.0.0.11 pods.forwarded", "127.0.0.12 pods.forwarded");

        awaitIds(List.of("127.0.0.11:9292", "127.0.0.12:9292", "[::1]:9292"));
    }

    @Test
    void aFamilyWithNoSuchNameBesideTheOtherFamilysRecordsLeavesThoseRecords() {
        dns = Dnsmasq.startWith(dir, List.of(Dnsmasq.configuredAddress(LOCAL, "127.0.0.11")));

        discovery = start(LOCAL);

        assertThat(ids(), is(List.of("127.0.0.11:9292")));
        // the premise: dnsmasq really said NXDOMAIN for AAAA, rather than an empty answer
        assertThat(log.messages(Level.WARNING), hasItem(startsWith(
                "Backends from DNS pods.test @" + at(dns.address()) + ": AAAA answer NXDOMAIN; ")));
    }

    @Test
    void anEmptyAnswerForOneFamilyBesideTheOtherFamilysRecordsIsNoFailure() {
        dns = Dnsmasq.start(dir, LOCAL);
        dns.records("127.0.0.11 pods.test");

        discovery = start(LOCAL);
        awaitResolutions(2);

        assertThat(ids(), is(List.of("127.0.0.11:9292")));
        assertThat(discovery.failures(), is(0L));
        assertThat(log.messages(Level.WARNING), is(empty()));
    }

    @Test
    void anEmptyAnswerBesideAFailedFamilyKeepsTheLastSetAndWarns() {
        dns = Dnsmasq.startWith(dir, List.of(Dnsmasq.existing(LOCAL), Dnsmasq.malformedAaaa(LOCAL)));
        dns.records("127.0.0.11 pods.test");
        discovery = start(LOCAL);
        assertThat(ids(), is(List.of("127.0.0.11:9292")));
        RoutingSnapshot before = pool.snapshot();

        // the name still exists, with no A record now; its AAAA answer is still garbage
        dns.records("127.0.0.11 other.test");
        awaitResolutions(2);

        assertThat(pool.snapshot(), is(sameInstance(before)));
        assertThat(discovery.failures(), greaterThanOrEqualTo(1L));
        assertThat(log.messages(Level.WARNING), hasItem(startsWith(
                "Backends from DNS pods.test @" + at(dns.address()) + ": resolution failed (AAAA query failed: ")));
    }

    @Test
    void bothFamiliesRefusedKeepsTheLastSet() {
        dns = Dnsmasq.start(dir);
        dns.records("127.0.0.11 pods.forwarded");
        discovery = start(FORWARDED);
        RoutingSnapshot before = pool.snapshot();

        dns.records("127.0.0.11 other.forwarded");
        awaitResolutions(2);

        assertThat(pool.snapshot(), is(sameInstance(before)));
        assertThat(ids(), is(List.of("127.0.0.11:9292")));
        assertThat(log.messages(Level.WARNING), hasItem("Backends from DNS pods.forwarded @" + at(dns.address())
                + ": resolution failed (A answer REFUSED; AAAA answer REFUSED); keeping the last 1 known"));
    }

    @Test
    void aFamilyThatKeepsFailingIsWarnedOfOnceAndItsRecoveryIsLogged() {
        dns = Dnsmasq.start(dir);
        dns.records("127.0.0.11 pods.forwarded");
        discovery = start(FORWARDED);
        awaitResolutions(3);

        dns.records("127.0.0.11 pods.forwarded", "::1 pods.forwarded");
        awaitIds(List.of("127.0.0.11:9292", "[::1]:9292"));

        assertThat(log.messages(Level.WARNING), is(List.of("Backends from DNS pods.forwarded @" + at(dns.address())
                + ": AAAA answer REFUSED; using the A answer, with the last 0 known AAAA addresses,"
                + " until AAAA answers again")));
        assertThat(log.messages(Level.INFO), hasItem(
                "Backends from DNS pods.forwarded @" + at(dns.address()) + ": AAAA answers again"));
    }

    private DnsBackendDiscovery start(String name) {
        return DnsBackendDiscovery.start(new DnsBackends(name, PORT, INTERVAL, Optional.of(dns.address()),
                Duration.ofMillis(500)), pool);
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

    private void awaitResolutions(int more) {
        long target = discovery.resolutions() + more;
        Eventually.await(DEADLINE, () -> discovery.resolutions() >= target, () -> discovery.resolutions() + " resolutions");
    }
}
