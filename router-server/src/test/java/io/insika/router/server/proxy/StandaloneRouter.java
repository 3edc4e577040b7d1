package io.insika.router.server.proxy;

import java.util.Arrays;

import io.insika.router.api.Backend;
import io.insika.router.api.PluginOptions;
import io.insika.router.server.RouterServer;
import io.insika.router.server.plugin.PluginRegistry;
import io.insika.router.server.routing.BackendPool;
import io.insika.router.server.routing.DefaultRoutes;
import io.insika.router.server.routing.RouteTable;

/**
 * A router in a JVM of its own, so a test can give it a heap of its choosing.
 * Arguments: backend URLs. Prints {@code PORT <n>} once it listens.
 */
public final class StandaloneRouter {

    private StandaloneRouter() {
    }

    public static void main(String[] backends) throws InterruptedException {
        PluginRegistry registry = PluginRegistry.builtIn();
        BackendPool pool = new BackendPool(
                registry.strategy("ketama").orElseThrow().create(PluginOptions.empty()),
                registry.strategy("round-robin").orElseThrow().create(PluginOptions.empty()));
        pool.update(Arrays.stream(backends).map(Backend::parse).toList());
        RouterServer server = RouterServer.start("127.0.0.1", 0, RouteTable.build(DefaultRoutes.specs(), registry),
                pool, ProxySettings.DEFAULTS);
        System.out.println("PORT " + server.port());
        System.out.flush();
        Thread.currentThread().join();
    }
}
