package io.insika.router.server.cli;

import java.math.BigDecimal;

import io.helidon.service.registry.GlobalServiceRegistry;

/**
 * Starts Helidon's service registry on a second thread while the main thread reads the
 * configuration. The web server's first routing builder would create it, tens of milliseconds
 * of the start (initialising the descriptors' classes, interpreted, and without
 * {@link HelidonRegistry} discovering them in every jar); on a second core it overlaps with the
 * configuration read instead of following it.
 *
 * <p>The two overlap only while the main thread runs the router's own code (the configuration,
 * the pool, the routes, the first DNS answer), SnakeYAML, dnsjava and the JDK:
 * {@link #awaitDone()} comes before the main thread touches Helidon, so no class of Helidon
 * is ever initialised from both threads at once (two threads initialising classes that need each
 * other is the one way such a warm-up could deadlock).
 */
final class RegistryWarmUp {

    private final Thread thread;

    private RegistryWarmUp(Thread thread) {
        this.thread = thread;
    }

    static RegistryWarmUp start() {
        return new RegistryWarmUp(Thread.ofPlatform().daemon().name("registry-warm-up").start(RegistryWarmUp::create));
    }

    /** Returns once the registry exists, or once its creation failed; the web server then reports why. */
    void awaitDone() {
        try {
            thread.join();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    private static void create() {
        try {
            GlobalServiceRegistry.registry(HelidonRegistry::create);
            // Helidon's HTTP/1 configuration holds sizes (io.helidon.common.Size), made of
            // BigDecimal, whose class initialisation takes 25-35 ms on JDK 25 (88 ms interpreted):
            // here it overlaps the configuration read instead of following it on the main thread.
            BigDecimal.ONE.signum();
        } catch (RuntimeException | LinkageError e) {
            // not created: the web server creates it again and fails with the cause where it is reported
        }
    }
}
