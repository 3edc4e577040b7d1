package io.insika.router.server.proxy;

import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;

import io.helidon.json.JsonObject;
import io.insika.router.api.Backend;
import io.insika.router.server.backends.BackendCapacity;
import io.insika.router.server.backends.BackendLimits;
import io.insika.router.server.testing.Eventually;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import io.insika.router.server.testing.TestProxySettings;

import static io.insika.router.server.proxy.BackendHealthTest.describe;
import static io.insika.router.server.proxy.BackendHealthTest.keyOwnedBy;
import static io.insika.router.server.proxy.BackendSlotsTest.keyed;
import static io.insika.router.server.proxy.RouterFixture.CLIENT;
import static org.hamcrest.MatcherAssert.assertThat;
import static org.hamcrest.Matchers.closeTo;
import static org.hamcrest.Matchers.is;

/** {@code GET /observe/backends} on the admin port tells what really happened to each backend. */
@Timeout(60)
class BackendsEndpointTest {

    @Test
    void itReportsSlotsInUseAgainstTheirLimitsTheKeyShareAndTheLastError() throws Exception {
        List<TestBackend> started = List.of(TestBackend.start("backend-0"), TestBackend.start("backend-1"),
                TestBackend.start("backend-2"));
        Backend roomy = started.get(2).backend();
        BackendCapacity capacity = new BackendCapacity(new BackendLimits(4, 2), Map.of(roomy.id(),
                new BackendLimits(8, 0)));
        try (RouterFixture router = RouterFixture.start(started, TestProxySettings.builder().capacity(capacity).build())) {
            router.backends.addAll(started);
            TestBackend busy = started.get(0);
            CompletableFuture<HttpResponse<String>> held = CLIENT.sendAsync(keyed(router, keyOwnedBy(router, busy), true),
                    HttpResponse.BodyHandlers.ofString());
            Eventually.await(Duration.ofSeconds(5), () -> busy.holding.get() == 1, () -> "never arrived");

            JsonObject entry = describe(router, busy.backend());
            assertThat(entry.stringValue("address").orElseThrow(), is("http://127.0.0.1:" + busy.port()));
            assertThat(entry.stringValue("state").orElseThrow(), is("up"));
            assertThat(entry.intValue("weight").orElseThrow(), is(1));
            assertThat(slots(entry, "requests"), is(List.of(1, 4)));
            assertThat(slots(entry, "tunnels"), is(List.of(0, 2)));
            assertThat(entry.value("last-error").orElseThrow().type().name(), is("NULL"));
            JsonObject roomyEntry = describe(router, roomy);
            assertThat(slots(roomyEntry, "requests"), is(List.of(0, 8)));
            assertThat("no limit is null", roomyEntry.objectValue("tunnels").orElseThrow()
                    .value("limit").orElseThrow().type().name(), is("NULL"));
            busy.holdRelease.release();
            assertThat(held.get().statusCode(), is(200));

            assertSharesMatchThePlacementOfOtherKeys(router, started);
            sessionsOfAnUnreachableBackendAreCountedAsRefusedWhileItIsDown(router, started.get(1));
        }
    }

    private static void assertSharesMatchThePlacementOfOtherKeys(RouterFixture router, List<TestBackend> backends) {
        Map<Backend, Integer> owned = new HashMap<>();
        int probes = 30_000;
        for (int i = 0; i < probes; i++) {
            owned.merge(router.ownerOf("probe-" + i), 1, Integer::sum);
        }
        double total = 0;
        for (TestBackend backend : backends) {
            double share = describe(router, backend.backend()).doubleValue("key-share").orElseThrow();
            total += share;
            assertThat(share, closeTo(owned.get(backend.backend()) / (double) probes, 0.02));
        }
        assertThat(total, closeTo(1.0, 0.001));
    }

    private static void sessionsOfAnUnreachableBackendAreCountedAsRefusedWhileItIsDown(RouterFixture router,
                                                                                   TestBackend gone) throws Exception {
        String session = keyOwnedBy(router, gone);
        gone.close();
        assertThat(CLIENT.send(keyed(router, session, false), HttpResponse.BodyHandlers.ofString()).statusCode(),
                is(503)); // tried, and could not connect
        assertThat(CLIENT.send(keyed(router, session, false), HttpResponse.BodyHandlers.ofString()).statusCode(),
                is(503)); // refused without trying: down

        JsonObject entry = describe(router, gone.backend());
        assertThat(entry.stringValue("state").orElseThrow(), is("down"));
        assertThat(entry.stringValue("down-reason").orElseThrow(), is("connect-failed"));
        assertThat(entry.objectValue("last-error").orElseThrow().stringValue("error").orElseThrow(), is("unreachable"));
        assertThat(entry.objectValue("refusals").orElseThrow().intValue("down").orElseThrow(), is(1));
    }

    private static List<Integer> slots(JsonObject entry, String kind) {
        JsonObject slots = entry.objectValue(kind).orElseThrow();
        return List.of(slots.intValue("in-flight").orElseThrow(), slots.intValue("limit").orElse(-1));
    }
}
