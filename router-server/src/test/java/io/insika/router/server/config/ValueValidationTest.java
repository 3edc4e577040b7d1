package io.insika.router.server.config;

import java.nio.file.Path;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import static org.hamcrest.MatcherAssert.assertThat;
import static org.hamcrest.Matchers.contains;
import static org.hamcrest.Matchers.is;
import static org.hamcrest.Matchers.hasItem;
import static org.hamcrest.Matchers.hasItems;

/** Bad values stop the start with one line naming the key, the value and what is valid. */
class ValueValidationTest {

    private static final String PORT_RANGE = "(expected: a port from 1 to 65535, or 0 for any free port)";

    @TempDir
    Path dir;
    private ConfigFiles files;

    @BeforeEach
    void setUp() {
        files = new ConfigFiles(dir);
    }

    @Test
    void aPortOutOfRangeOrNotANumberIsRejected() {
        assertThat(files.problems("server: { port: 70000, admin-port: nine }"), contains(
                "server.port: [70000] " + PORT_RANGE, "server.admin-port: [nine] " + PORT_RANGE));
        assertThat(files.problems("", Map.of("INSIKA_ROUTER_PORT", "-1")), contains("INSIKA_ROUTER_PORT: [-1] " + PORT_RANGE));
    }

    @Test
    void theAdminPortMustDifferFromTheProxyPort() {
        assertThat(files.problems("server: { port: 9000, admin-port: 9000 }"), contains("server.admin-port: [9000] "
                + "(expected: a port other than the proxy's port 9000, so observe endpoints are never proxied)"));
    }

    @Test
    void aSizeIsBytesOrAWholeNumberWithABinaryUnit() {
        assertThat(files.load("proxy: { body-max-bytes: 256KiB }").proxy().bodyMaxBytes(), is(262_144));
        assertThat(files.load("proxy: { body-max-bytes: 1 MiB }").proxy().bodyMaxBytes(), is(1_048_576));
        assertThat(files.load("proxy: { body-max-bytes: 512b }").proxy().bodyMaxBytes(), is(512));
        assertThat(files.load("proxy: { body-max-bytes: 1GiB }").proxy().bodyMaxBytes(), is(1_073_741_824));
        assertThat(files.load("", Map.of("INSIKA_ROUTER_PEEK_BUDGET", "32MiB")).proxy().peekBudget(), is(33_554_432));
        assertThat(files.load("", Map.of("INSIKA_ROUTER_CLIENT_BODY_MIN_RATE", "1KiB")).proxy().clientBodyMinRate(),
                is(1024L));
        assertThat(files.load("proxy: { body-max-bytes: 4096 }").proxy().bodyMaxBytes(), is(4096));
    }

    @Test
    void aSizeThatIsNoWholeNumberOfBytesInRangeIsRejectedNamingTheUnits() {
        String expected = "(expected: a whole number of bytes from 1 to 2147483647: bytes such as 262144, or with a"
                + " unit: 256KiB, 1MiB, 1GiB)";
        for (String wrong : List.of("0", "256k", "256KB", "1.5MiB", "2GiB", "99999999999999999999", "MiB")) {
            assertThat(files.problems("proxy: { body-max-bytes: \"" + wrong + "\" }"),
                    contains("proxy.body-max-bytes: [" + wrong + "] " + expected));
        }
        assertThat(files.problems("", Map.of("INSIKA_ROUTER_BODY_MAX_BYTES", "-5")),
                contains("INSIKA_ROUTER_BODY_MAX_BYTES: [-5] " + expected));
    }

    @Test
    void trustedProxiesAreAddressesOrCidrBlocks() {
        String expected = "(expected: comma-separated IP addresses or CIDR blocks, such as 10.0.0.0/8, fd00::/8)";
        assertThat(files.problems("proxy: { trusted-proxies: \"10.0.0.0/33\" }"),
                contains("proxy.trusted-proxies: [10.0.0.0/33] " + expected));
        assertThat(files.problems("proxy: { trusted-proxies: \"ingress.local\" }"),
                contains("proxy.trusted-proxies: [ingress.local] " + expected));
        assertThat(files.problems("", Map.of("INSIKA_ROUTER_TRUSTED_PROXIES", "10.0.0.0/8, nonsense")),
                contains("INSIKA_ROUTER_TRUSTED_PROXIES: [10.0.0.0/8, nonsense] " + expected));
        assertThat(files.load("proxy: { trusted-proxies: \"10.0.0.0/8, fd00::/8, 192.0.2.1\" }").proxy().trustedProxies()
                .entries(), contains("10.0.0.0/8", "fd00::/8", "192.0.2.1"));
        assertThat(files.load("").proxy().trustedProxies().isEmpty(), is(true));
    }

    @Test
    void overloadLimitsAreWholeNumbersInRange() {
        assertThat(files.problems("proxy: { max-requests: 0 }"),
                contains("proxy.max-requests: [0] (expected: a whole number from 1 to 1000000)"));
        assertThat(files.problems("", Map.of("INSIKA_ROUTER_PEEK_BUDGET", "32MB")),
                contains("INSIKA_ROUTER_PEEK_BUDGET: [32MB] (expected: a whole number of bytes from 0 to 2147483647:"
                        + " bytes such as 262144, or with a unit: 256KiB, 1MiB, 1GiB)"));
        assertThat(files.problems("server: { max-connections: lots }"),
                contains("server.max-connections: [lots] (expected: a whole number from 0 to 1000000)"));
        RouterConfig config = files.load("server: { max-connections: 100 }\nproxy: { max-requests: 50, peek-budget: 0 }");
        assertThat(config.server().maxConnections(), is(100));
        assertThat(config.proxy().maxRequests(), is(50));
        assertThat(config.proxy().peekBudget(), is(0));
        assertThat(files.load("", Map.of("INSIKA_ROUTER_MAX_REQUESTS", "7")).proxy().maxRequests(), is(7));
    }

    @Test
    void backendSlotsAreWholeNumbersFromZero() {
        String expected = "(expected: a whole number from 0 (no limit) to 1000000)";
        assertThat(files.problems("backends: { max-requests: -1, max-tunnels: lots }"), contains(
                "backends.max-requests: [-1] " + expected, "backends.max-tunnels: [lots] " + expected));
        assertThat(files.problems("backends: { static: [ { url: \"http://127.0.0.1:1\", max-requests: 1.5 } ] }"),
                contains("backends.static[0].max-requests: [1.5] " + expected));
        assertThat(files.problems("", Map.of("INSIKA_ROUTER_BACKEND_MAX_TUNNELS", "2000000")),
                contains("INSIKA_ROUTER_BACKEND_MAX_TUNNELS: [2000000] " + expected));
    }

    @Test
    void aPlacementIdIsVisibleAsciiAndNoTwoBackendsShareOne() {
        assertThat(files.problems("backends: { static: [ { url: \"http://10.0.0.1:1\", id: \"a b\" } ] }"), contains(
                "backends.static[0].id: [a b] (expected: 1 to 255 visible ASCII characters, no space: the id the"
                        + " cluster knows this backend by)"));
        assertThat(files.problems("backends: { static: [ { url: \"http://10.0.0.1:1\", id: \"10.0.0.2:1\" },"
                        + " \"http://10.0.0.2:1\" ] }"),
                contains("backends.static[1]: [10.0.0.2:1] (expected: an id no other backend has; backends.static[0]"
                        + ".url has it too)"));
    }

    @Test
    void aRoutesOnMissIsProxyRedirectOrAutoAndOnlyAutoTakesOrigins() {
        String route = "routes: [ { path: /a, keys: [ { type: header, name: X } ], ";
        assertThat(files.problems(route + "on-miss: bounce } ]"),
                contains("routes[0].on-miss: [bounce] (expected: proxy, redirect or auto)"));
        assertThat(files.problems(route + "on-miss: redirect, redirect-origins: [ \"https://a.test\" ] } ]"),
                contains("routes[0].redirect-origins: [a list] (expected: absent unless on-miss is auto: redirect"
                        + " redirects every origin, proxy none)"));
        assertThat(files.problems(route + "on-miss: auto, redirect-origins: [ \"https://a.test/app\" ] } ]"),
                contains("routes[0].redirect-origins[0]: [https://a.test/app] (expected: an origin as browsers send"
                        + " it: scheme://host[:port], such as https://app.example.com)"));
        assertThat(files.problems(route + "on-miss: redirect, max-redirects: 11 } ]"),
                contains("routes[0].max-redirects: [11] (expected: a whole number from 0 to 10)"));
    }

    @Test
    void aPublicAddressIsAnAbsoluteHttpUri() {
        assertThat(files.problems("backends: { static: [ { url: \"http://10.0.0.1:1\", public-address: \"host-3\" } ] }"),
                contains("backends.static[0].public-address: [host-3] (expected: http(s)://host[:port][/path], the"
                        + " address clients reach this backend at (never its internal one), such as"
                        + " https://host-3.example.com)"));
        assertThat(files.problems("backends: { dns: { name: a.test, port: 1, public-address: \"https://actors.test\" } }")
                .getFirst(), org.hamcrest.Matchers.startsWith("backends.dns.public-address: [https://actors.test]"));
    }

    @Test
    void anIdTemplateNamesTheAddressAndOnlyKnownPlaceholders() {
        String expected = "(expected: " + AddressTemplate.EXPECTED + ")";
        for (String template : new String[] {"actor", "{name}:{port}", "{ip", "{ip} {port}"}) {
            assertThat(template, files.problems("backends: { dns: { name: a.test, port: 1, id: \"" + template + "\" } }"),
                    contains("backends.dns.id: [" + template + "] " + expected));
        }
    }

    @Test
    void aHealthCheckPathStartsWithASlashAndItsTimeoutFitsItsInterval() {
        assertThat(files.problems("health: { path: healthz }"), contains(
                "health.path: [healthz] (expected: empty (no active checks) or a path starting with /, such as /healthz)"));
        assertThat(files.problems("", Map.of("INSIKA_ROUTER_HEALTH_PATH", "/a b")), contains(
                "INSIKA_ROUTER_HEALTH_PATH: [/a b] (expected: empty (no active checks) or a path starting with /,"
                        + " such as /healthz)"));
        assertThat(files.problems("health: { interval: 1s, timeout: 3s }"), contains(
                "health.timeout: [3s] (expected: at most health.interval (1s): one check must end before the next)"));
        assertThat(files.problems("health: { down-time: 0s }"), contains(
                "health.down-time: [0s] (expected: a positive duration: " + DurationText.FORMS + ")"));
    }

    @Test
    void anAccessLogSwitchIsTrueOrFalse() {
        assertThat(files.problems("proxy: { access-log: yes-please }"),
                contains("proxy.access-log: [yes-please] (expected: true or false)"));
        assertThat(files.problems("", Map.of("INSIKA_ROUTER_ACCESS_LOG", "1")),
                contains("INSIKA_ROUTER_ACCESS_LOG: [1] (expected: true or false)"));
    }

    @Test
    void aTimeoutOrIntervalThatIsNotAPositiveDurationIsRejected() {
        String expected = "(expected: a positive duration: " + DurationText.FORMS + ")";
        assertThat(files.problems("proxy: { backend-timeout: 0 }"), contains("proxy.backend-timeout: [0] " + expected));
        assertThat(files.problems("", Map.of("INSIKA_ROUTER_BACKEND_TIMEOUT", "soon")),
                contains("INSIKA_ROUTER_BACKEND_TIMEOUT: [soon] " + expected));
        assertThat(files.problems("proxy: { client-body-timeout: 0s }"),
                contains("proxy.client-body-timeout: [0s] " + expected));
        assertThat(files.problems("", Map.of("INSIKA_ROUTER_CLIENT_SEND_TIMEOUT", "never")),
                contains("INSIKA_ROUTER_CLIENT_SEND_TIMEOUT: [never] " + expected));
        assertThat(files.problems("backends: { dns: { name: a.test, port: 80, interval: -1s, timeout: 0ms } }"), contains(
                "backends.dns.interval: [-1s] " + expected, "backends.dns.timeout: [0ms] " + expected));
        assertThat(files.problems("", Map.of("INSIKA_ROUTER_BACKENDS_DNS", "a.test", "INSIKA_ROUTER_BACKEND_PORT", "80",
                "INSIKA_ROUTER_DNS_INTERVAL", "0")), contains("INSIKA_ROUTER_DNS_INTERVAL: [0] " + expected));
    }

    @Test
    void aNegativeShutdownGraceIsRejectedButZeroIsAllowed() {
        assertThat(files.problems("server: { shutdown-grace: -1 }"), contains("server.shutdown-grace: [-1] "
                + "(expected: zero or a positive duration: " + DurationText.FORMS + ")"));
        files.load("server: { shutdown-grace: 0 }");
    }

    @Test
    void aNegativeStopDelayIsRejectedButZeroIsAllowed() {
        assertThat(files.problems("", Map.of("INSIKA_ROUTER_STOP_DELAY", "-2")), contains("INSIKA_ROUTER_STOP_DELAY: [-2] "
                + "(expected: zero or a positive duration: " + DurationText.FORMS + ")"));
        files.load("server: { stop-delay: 0 }");
    }

    @Test
    void staticAndDnsTogetherAreRejectedWhereverTheyAreGiven() {
        assertThat(files.problems("backends: { static: [ http://127.0.0.1:1 ], dns: { name: a.test, port: 80 } }"),
                contains("backends: [static, dns] (expected: exactly one of static or dns)"));
        assertThat(files.problems("", Map.of("INSIKA_ROUTER_BACKENDS", "http://127.0.0.1:1",
                "INSIKA_ROUTER_BACKENDS_DNS", "a.test", "INSIKA_ROUTER_BACKEND_PORT", "80")), hasItem(
                "INSIKA_ROUTER_BACKENDS_DNS: [a.test] (expected: unset when INSIKA_ROUTER_BACKENDS is set: "
                        + "choose static or DNS mode)"));
    }

    @Test
    void dnsModeWithoutAPortIsRejected() {
        String expected = "(expected: a port from 1 to 65535: DNS mode needs the port every resolved backend listens on)";
        assertThat(files.problems("backends: { dns: { name: a.test } }"), contains("backends.dns.port: [] " + expected));
        assertThat(files.problems("", Map.of("INSIKA_ROUTER_BACKENDS_DNS", "a.test")),
                contains("INSIKA_ROUTER_BACKEND_PORT: [] " + expected));
        assertThat(files.problems("backends: { dns: { name: a.test, port: 0 } }"),
                contains("backends.dns.port: [0] (expected: a port from 1 to 65535)"));
    }

    @Test
    void dnsModeNeedsAValidNameAndAnIpLiteralResolver() {
        assertThat(files.problems("backends: { dns: { name: \"http://a.test\", port: 80, resolver: dns.google } }"),
                contains("backends.dns.name: [http://a.test] (expected: a fully qualified DNS name, such as "
                                + "insika-headless.default.svc.cluster.local)",
                        "backends.dns.resolver: [dns.google] (expected: an IP address with an optional port, such as "
                                + "10.96.0.10, 127.0.0.1:5353 or [::1]:53)"));
        assertThat(files.problems("backends: { dns: { port: 80 } }"), contains(
                "backends.dns.name: [] (expected: a fully qualified DNS name, such as "
                        + "insika-headless.default.svc.cluster.local)"));
    }

    @Test
    void dnsVariablesInStaticModeAreRejectedNotIgnored() {
        assertThat(files.problems("backends: { static: [ http://127.0.0.1:1 ] }", Map.of("INSIKA_ROUTER_BACKEND_PORT", "9292")),
                contains("INSIKA_ROUTER_BACKEND_PORT: [9292] (expected: unset in static mode; it applies only with "
                        + "INSIKA_ROUTER_BACKENDS_DNS or backends.dns)"));
    }

    @Test
    void aBackendUrlMustBeHttpWithHostAndPort() {
        String expected = "(expected: http(s)://host:port)";
        assertThat(files.problems("""
                backends:
                  static: [ "ftp://a.test:21", "http://a.test", "a.test:9292", "http://a.test:1/api", { url: "http://a.test:1", weight: 0 } ]
                """), contains(
                "backends.static[0]: [ftp://a.test:21] " + expected,
                "backends.static[1]: [http://a.test] " + expected,
                "backends.static[2]: [a.test:9292] " + expected,
                "backends.static[3]: [http://a.test:1/api] " + expected,
                "backends.static[4].weight: [0] (expected: a whole number from 1 to 1000)"));
        assertThat(files.problems("", Map.of("INSIKA_ROUTER_BACKENDS", "http://127.0.0.1:1,,https://[::1]:2")),
                contains("INSIKA_ROUTER_BACKENDS[1]: [] " + expected));
    }

    @Test
    void aBackendListedTwiceIsRejected() {
        assertThat(files.problems("backends: { static: [ \"http://127.0.0.1:9292\", { url: \"http://127.0.0.1:9292/\" } ] }"),
                contains("backends.static[1].url: [http://127.0.0.1:9292/] (expected: each backend once; "
                        + "127.0.0.1:9292 is also at backends.static[0])"));
        assertThat(files.problems("", Map.of("INSIKA_ROUTER_BACKENDS", "http://A.test:1,http://a.test:1")),
                contains("INSIKA_ROUTER_BACKENDS[1]: [http://a.test:1] (expected: each backend once; "
                        + "a.test:1 is also at INSIKA_ROUTER_BACKENDS[0])"));
    }

    @Test
    void everyProblemIsReportedInOneRun() {
        assertThat(files.problems("server: { port: x, host: \"a b\" }\nproxy: { body-max-bytes: 0 }\nstrategey: ketama"),
                hasItems(
                        "strategey: unknown key (expected one of: " + TableKeys.topLevel() + ")",
                        "server.host: [a b] (expected: a host name or IP address, such as 0.0.0.0)",
                        "server.port: [x] " + PORT_RANGE,
                        "proxy.body-max-bytes: [0] (expected: a whole number of bytes from 1 to 2147483647: bytes such"
                                + " as 262144, or with a unit: 256KiB, 1MiB, 1GiB)"));
    }
}
