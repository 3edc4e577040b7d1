package io.insika.router.server;

import io.helidon.health.HealthCheck;
import io.helidon.health.HealthCheckResponse;
import io.helidon.health.HealthCheckType;
import io.insika.router.server.proxy.OpenLimit;

/**
 * Not ready while the proxy port holds {@code server.max-connections}: a new client would get
 * only the retry envelope, so a load balancer should send it elsewhere. Liveness ({@code /up},
 * answered even then) stays up: a full router is busy, not broken.
 */
final class ConnectionReadiness implements HealthCheck {

    private final OpenLimit connections;

    ConnectionReadiness(OpenLimit connections) {
        this.connections = connections;
    }

    @Override
    public HealthCheckType type() {
        return HealthCheckType.READINESS;
    }

    @Override
    public String name() {
        return "connections";
    }

    @Override
    public HealthCheckResponse call() {
        return HealthCheckResponse.builder().status(!connections.full())
                .detail("open", connections.open())
                .detail("limit", connections.limit())
                .detail("refused", connections.refused())
                .build();
    }
}
