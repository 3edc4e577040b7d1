package io.insika.router.server.proxy;

import java.util.Arrays;

import io.insika.router.api.Backend;
import io.insika.router.server.RouterServer;
import io.insika.router.server.ServerSettings;
import io.insika.router.server.routing.BackendPool;
import io.insika.router.server.testing.TestServers;
import io.insika.router.server.testing.TestProxySettings;

/**
 * A router in a JVM of its own, so a test can give it a heap of its choosing.
 * Arguments: backend URLs. Prints {@code PORT <n>} once it listens.
 */
public final class StandaloneRouter {

    private StandaloneRouter() {
    }

    public static void main(String[] backends) throws InterruptedException {
        BackendPool pool = RouterFixture.ketamaPool(Arrays.stream(backends).map(Backend::parse).toList());
        // the shipped defaults
        RouterServer server = RouterServer.start(TestServers.settings(ServerSettings.DEFAULT_MAX_CONNECTIONS,
                        ServerSettings.DEFAULT_HEAD_TIMEOUT, ServerSettings.DEFAULT_IDLE_TIMEOUT, Http2Settings.DEFAULTS),
                RouterFixture.defaultRoutes(), pool, TestProxySettings.DEFAULTS);
        System.out.println("PORT " + server.port());
        System.out.flush();
        Thread.currentThread().join();
    }
}
