package io.insika.router.server.discovery;

import java.util.List;

import io.helidon.health.HealthCheckResponse;
import io.helidon.health.HealthCheckType;
import io.insika.router.api.Backend;
import io.insika.router.server.routing.BackendPool;
import io.insika.router.server.testing.FixturePlugins;
import org.junit.jupiter.api.Test;

import static org.hamcrest.MatcherAssert.assertThat;
import static org.hamcrest.Matchers.is;

class PoolReadinessTest {

    private final BackendPool pool = FixturePlugins.pool(FixturePlugins.firstBackend(), FixturePlugins.firstBackend());
    private final PoolReadiness readiness = new PoolReadiness(pool);

    @Test
    void isAReadinessCheck() {
        assertThat(readiness.type(), is(HealthCheckType.READINESS));
        assertThat(readiness.name(), is("backends"));
    }

    @Test
    void aPoolWithoutBackendsIsNotReady() {
        HealthCheckResponse response = readiness.call();

        assertThat(response.status(), is(HealthCheckResponse.Status.DOWN));
        assertThat(response.details().get("backends"), is(0));
    }

    @Test
    void aPoolWithABackendIsReadyAndFollowsChanges() {
        pool.update(List.of(Backend.parse("http://127.0.0.1:9292"), Backend.parse("http://127.0.0.1:9293")));
        HealthCheckResponse ready = readiness.call();
        pool.update(List.of());
        HealthCheckResponse drained = readiness.call();

        assertThat(ready.status(), is(HealthCheckResponse.Status.UP));
        assertThat(ready.details().get("backends"), is(2));
        assertThat(drained.status(), is(HealthCheckResponse.Status.DOWN));
    }
}
