package io.insika.router.distribution;

import java.net.http.HttpResponse;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

class GracefulStopTest {

    @Test
    void sigtermLetsAnInFlightRequestCompleteAndExitsZero() throws Exception {
        UnpackedDistribution dist = UnpackedDistribution.unpack();
        try (WhoAmIBackend backend = new WhoAmIBackend("slow-one");
             RouterProcess router = RouterProcess.start(dist, Map.of(),
                     "--config", dist.configFor(List.of(backend), "").toString()).awaitListening()) {
            CompletableFuture<HttpResponse<String>> slow = CompletableFuture.supplyAsync(
                    () -> Http.get(router.port(), "/slow?ms=1500", Map.of()));
            assertTrue(backend.slowStarted.await(20, TimeUnit.SECONDS), "the slow request reached the backend");

            RouterProcess.Result stopped = router.terminate();

            HttpResponse<String> response = slow.get(20, TimeUnit.SECONDS);
            assertEquals(200, response.statusCode());
            assertEquals("slow-one after a while", response.body());
            assertEquals(0, stopped.exitCode(), stopped.stderr());
            assertTrue(stopped.stderr().contains("stopped"), stopped.stderr());
        }
    }

    @Test
    void duringTheStopDelayTheRouterIsNotReadyButStillServes() throws Exception {
        UnpackedDistribution dist = UnpackedDistribution.unpack();
        try (WhoAmIBackend backend = new WhoAmIBackend("still-here");
             RouterProcess router = RouterProcess.start(dist, Map.of("INSIKA_ROUTER_STOP_DELAY", "5"),
                     "--config", dist.configFor(List.of(backend), "").toString()).awaitListening()) {
            router.sigterm();
            for (int i = 0; i < 200 && Http.get(router.adminPort(), "/observe/health/ready", Map.of()).statusCode() != 503;
                 i++) {
                RouterProcess.sleep(10);
            }
            assertEquals(503, Http.get(router.adminPort(), "/observe/health/ready", Map.of()).statusCode());

            HttpResponse<String> late = Http.postJson(router.port(), "/v1/responses", "{\"user\":\"late\"}");

            assertEquals(200, late.statusCode());
            assertEquals("still-here", late.body());
            RouterProcess.Result stopped = router.awaitExit();
            assertEquals(0, stopped.exitCode(), stopped.stderr());
        }
    }

    @Test
    void aSecondSignalEndsTheStopDelay() throws Exception {
        UnpackedDistribution dist = UnpackedDistribution.unpack();
        try (WhoAmIBackend backend = new WhoAmIBackend("hurried");
             RouterProcess router = RouterProcess.start(dist, Map.of("INSIKA_ROUTER_STOP_DELAY", "300"),
                     "--config", dist.configFor(List.of(backend), "").toString()).awaitListening()) {
            router.sigterm();
            for (int i = 0; i < 500 && !router.stderr().contains("still serving for 5m"); i++) {
                RouterProcess.sleep(10);
            }
            assertTrue(router.stderr().contains("still serving for 5m"), router.stderr());

            router.sigterm();

            RouterProcess.Result stopped = router.awaitExit(); // fails after 60 s, far short of the 5 m delay
            assertEquals(0, stopped.exitCode(), stopped.stderr());
            assertTrue(stopped.stderr().contains("asked again: stopping now"), stopped.stderr());
        }
    }
}
