package io.insika.router.server.discovery;

import io.helidon.health.HealthCheck;
import io.helidon.health.HealthCheckResponse;
import io.helidon.health.HealthCheckType;
import io.insika.router.server.routing.BackendPool;
import io.insika.router.server.routing.RoutingSnapshot;

/**
 * Readiness for {@code /observe/health/ready}: up only while the pool has a backend, so a
 * Kubernetes Service stops sending traffic to a router replica that could only answer 503.
 * Liveness is separate: a router with no backends is still alive.
 */
public final class PoolReadiness implements HealthCheck {

    private final BackendPool pool;

    /**
     * @param pool the pool whose current snapshot decides
     */
    public PoolReadiness(BackendPool pool) {
        this.pool = pool;
    }

    @Override
    public HealthCheckType type() {
        return HealthCheckType.READINESS;
    }

    @Override
    public String name() {
        return "backends";
    }

    @Override
    public HealthCheckResponse call() {
        RoutingSnapshot snapshot = pool.snapshot();
        return HealthCheckResponse.builder()
                .status(!snapshot.isEmpty())
                .detail("backends", snapshot.backends().size())
                .build();
    }
}
