package io.insika.router.server;

import java.util.concurrent.atomic.AtomicBoolean;

import io.helidon.health.HealthCheck;
import io.helidon.health.HealthCheckResponse;
import io.helidon.health.HealthCheckType;

/**
 * Not ready from the moment the router starts to stop: the admin server keeps answering through
 * the stop delay and while the proxy drains (it is stopped last), and a load balancer polling
 * readiness must hear that no new requests are wanted.
 */
final class DrainReadiness implements HealthCheck {

    private final AtomicBoolean draining = new AtomicBoolean();

    /** Called as the stop begins. */
    void drain() {
        draining.set(true);
    }

    @Override
    public HealthCheckType type() {
        return HealthCheckType.READINESS;
    }

    @Override
    public String name() {
        return "draining";
    }

    @Override
    public HealthCheckResponse call() {
        boolean drainingNow = draining.get();
        return HealthCheckResponse.builder().status(!drainingNow).detail("draining", drainingNow).build();
    }
}
