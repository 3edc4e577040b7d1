package io.insika.router.server.proxy;

import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

import io.helidon.json.JsonObject;
import io.helidon.json.JsonParser;
import io.helidon.json.JsonValue;
import io.insika.router.api.Backend;
import io.insika.router.server.backends.HealthSettings;
import io.insika.router.server.testing.Eventually;
import io.insika.router.server.testing.Scrape;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;
import io.insika.router.server.testing.TestProxySettings;

import static io.insika.router.server.proxy.BackendSlotsTest.keyed;
import static io.insika.router.server.proxy.BackendSlotsTest.unkeyed;
import static io.insika.router.server.proxy.RouterFixture.CLIENT;
import static org.hamcrest.MatcherAssert.assertThat;
import static org.hamcrest.Matchers.containsString;
import static org.hamcrest.Matchers.everyItem;
import static org.hamcrest.Matchers.is;
import static org.hamcrest.Matchers.not;

/**
 * A backend marked down (a connect failed, or its active check fails) takes no request without a
 * key, while its sessions get the retry envelope and are never moved: the ring does not change,
 * so when it comes back every session is where its state is.
 */
@Timeout(60)
class BackendHealthTest {

    @RegisterExtension
    final Routers routers = new Routers();

    @Test
    void aBackendThatCannotBeReachedTakesNoUnkeyedRequestAndItsSessionsWaitForItsReturn() throws Exception {
        HealthSettings passive = new HealthSettings(Duration.ofMillis(300), Optional.empty(), Duration.ofSeconds(5),
                Duration.ofSeconds(1));
        RouterFixture router = routers.withBackends(3, TestProxySettings.builder().health(passive).build());
        TestBackend dead = router.backends.get(1);
        String session = keyOwnedBy(router, dead);
        dead.close();

        List<Integer> unkeyed = new ArrayList<>();
        for (int i = 0; i < 30; i++) {
            unkeyed.add(CLIENT.send(unkeyed(router, false), HttpResponse.BodyHandlers.ofString()).statusCode());
        }
        assertThat("nothing was sent to the dead one, so each went on to the next", unkeyed, everyItem(is(200)));
        for (int i = 0; i < 3; i++) {
            HttpResponse<String> refused = CLIENT.send(keyed(router, session, false),
                    HttpResponse.BodyHandlers.ofString());
            assertThat(refused.statusCode(), is(503));
            assertThat(refused.headers().firstValue("retry-after"), is(Optional.of("1")));
            assertThat(refused.body(), containsString("\"retryable\":true"));
        }
        assertThat(Scrape.of(router.adminPort()).sum("insika_router_redispatches_total") >= 1, is(true));

        TestBackend back = TestBackend.restart(dead);
        router.backends.set(1, back);
        Eventually.await(Duration.ofSeconds(10), () -> served(router, session, back), () -> "the session never resumed");
        assertThat("the ring never changed", router.ownerOf(session), is(back.backend()));
    }

    @Test
    void aFailingActiveCheckMarksItsBackendDownAndAPassingOneBringsItBack() throws Exception {
        RouterFixture router = routers.withBackends(2, TestProxySettings.builder()
                .healthChecks("/healthz", Duration.ofMillis(200), Duration.ofMillis(200)).build());
        TestBackend sick = router.backends.get(0);
        TestBackend well = router.backends.get(1);
        String session = keyOwnedBy(router, sick);
        sick.healthStatus = 503;
        Eventually.await(Duration.ofSeconds(5), () -> state(router, sick.backend()).equals("down"),
                () -> "never marked down");
        JsonObject described = describe(router, sick.backend());
        assertThat(described.stringValue("down-reason").orElseThrow(), is("check-failed"));
        assertThat(described.objectValue("last-error").orElseThrow().stringValue("detail").orElseThrow(),
                containsString("answered 503"));
        int sickHits = sick.hits.get();

        for (int i = 0; i < 10; i++) {
            assertThat(CLIENT.send(unkeyed(router, false), HttpResponse.BodyHandlers.ofString())
                    .headers().firstValue("x-backend"), is(Optional.of(well.name)));
        }
        HttpResponse<String> refused = CLIENT.send(keyed(router, session, false), HttpResponse.BodyHandlers.ofString());
        assertThat(refused.statusCode(), is(503));
        assertThat("a down backend's session goes nowhere else", well.hits.get(), is(10));
        assertThat(sick.hits.get(), is(sickHits));
        assertThat(Scrape.of(router.adminPort()).sum("insika_router_backend_up", "backend", sick.backend().id()),
                is(0.0));

        sick.healthStatus = 200;
        Eventually.await(Duration.ofSeconds(5), () -> state(router, sick.backend()).equals("up"),
                () -> "never marked up");
        assertThat(served(router, session, sick), is(true));
    }

    @Test
    void aCheckThatGetsNoAnswerWithinItsTimeoutMarksDown() throws Exception {
        RouterFixture router = routers.withBackends(1, TestProxySettings.builder()
                .healthChecks("/silent", Duration.ofMillis(300), Duration.ofMillis(200)).build());
        Backend only = router.backends.getFirst().backend();

        Eventually.await(Duration.ofSeconds(5), () -> state(router, only).equals("down"), () -> "never marked down");
        assertThat(describe(router, only).objectValue("last-error").orElseThrow().stringValue("detail").orElseThrow(),
                containsString("no answer within 200 ms"));
        HttpResponse<String> refused = CLIENT.send(unkeyed(router, false), HttpResponse.BodyHandlers.ofString());
        assertThat(refused.statusCode(), is(503));
        assertThat(refused.body(), not(containsString("BackendFull")));
    }

    private static boolean served(RouterFixture router, String session, TestBackend by) {
        try {
            HttpResponse<String> answer = CLIENT.send(keyed(router, session, false),
                    HttpResponse.BodyHandlers.ofString());
            if (answer.statusCode() == 200) {
                assertThat(answer.headers().firstValue("x-backend"), is(Optional.of(by.name)));
                return true;
            }
            return false;
        } catch (java.io.IOException | InterruptedException e) {
            return false;
        }
    }

    static String keyOwnedBy(RouterFixture router, TestBackend owner) {
        for (int i = 0; ; i++) {
            String key = "user-" + i;
            if (router.ownerOf(key).equals(owner.backend())) {
                return key;
            }
        }
    }

    static String state(RouterFixture router, Backend backend) {
        return describe(router, backend).stringValue("state").orElseThrow();
    }

    /** One backend's entry of {@code /observe/backends}. */
    static JsonObject describe(RouterFixture router, Backend backend) {
        try {
            HttpResponse<String> answer = CLIENT.send(HttpRequest.newBuilder(java.net.URI.create(
                    "http://127.0.0.1:" + router.adminPort() + "/observe/backends")).build(),
                    HttpResponse.BodyHandlers.ofString());
            for (JsonValue entry : JsonParser.create(answer.body()).readJsonObject().arrayValue("backends")
                    .orElseThrow().values()) {
                if (entry.asObject().stringValue("id").orElseThrow().equals(backend.id())) {
                    return entry.asObject();
                }
            }
            throw new AssertionError(backend.id() + " not in " + answer.body());
        } catch (java.io.IOException | InterruptedException e) {
            throw new AssertionError(e);
        }
    }
}
