package io.insika.router.server.proxy;

import java.net.URI;
import java.net.http.HttpClient;
import java.time.Duration;
import java.util.List;

import io.insika.router.api.Backend;
import io.insika.router.api.PluginOptions;
import io.insika.router.server.RouterServer;
import io.insika.router.server.plugin.PluginRegistry;
import io.insika.router.server.routing.BackendPool;
import io.insika.router.server.routing.DefaultRoutes;
import io.insika.router.server.routing.RouteTable;
import io.insika.router.server.testing.FixturePlugins;
import io.insika.router.server.testing.TestServers;
import io.insika.router.server.testing.TestProxySettings;

/** A router on a loopback port in front of test backends, with the default (seed) route table. */
final class RouterFixture implements AutoCloseable {

    static final HttpClient CLIENT = HttpClient.newBuilder()
            .version(HttpClient.Version.HTTP_1_1)
            .connectTimeout(Duration.ofSeconds(5))
            .build();

    final BackendPool pool;
    /** Backends the fixture started itself, and closes with the router. */
    final List<TestBackend> backends = new java.util.ArrayList<>();
    private final RouterServer server;

    RouterFixture(BackendPool pool, RouterServer server) {
        this.pool = pool;
        this.server = server;
    }

    /** A router in front of {@code count} new backends named {@code backend-0}, {@code backend-1}... */
    static RouterFixture withBackends(int count, ProxySettings settings) {
        List<TestBackend> started = new java.util.ArrayList<>();
        for (int i = 0; i < count; i++) {
            started.add(TestBackend.start("backend-" + i));
        }
        RouterFixture fixture = start(started, settings);
        fixture.backends.addAll(started);
        return fixture;
    }

    static RouterFixture start(List<TestBackend> backends) {
        return start(backends, TestProxySettings.DEFAULTS);
    }

    static RouterFixture start(List<TestBackend> backends, ProxySettings settings) {
        BackendPool pool = ketamaPool(backends.stream().map(TestBackend::backend).toList());
        return new RouterFixture(pool, TestServers.start(defaultRoutes(), pool, settings));
    }

    /** A pool placing keys with ketama, filled with these backends. */
    static BackendPool ketamaPool(List<Backend> backends) {
        PluginRegistry registry = FixturePlugins.builtIn();
        BackendPool pool = new BackendPool(
                registry.strategy("ketama").orElseThrow().create(PluginOptions.empty()), "ketama", PluginOptions.empty(),
                registry.strategy("round-robin").orElseThrow().create(PluginOptions.empty()));
        pool.update(backends);
        return pool;
    }

    /** The seed's route table, built from the built-in extractors. */
    static RouteTable defaultRoutes() {
        return RouteTable.build(DefaultRoutes.specs(), FixturePlugins.builtIn());
    }

    URI uri(String pathAndQuery) {
        return URI.create("http://127.0.0.1:" + server.port() + pathAndQuery);
    }

    int port() {
        return server.port();
    }

    int adminPort() {
        return server.adminPort();
    }

    /** The test backend behind a backend of the pool. */
    TestBackend backendOf(Backend backend) {
        return backends.stream().filter(b -> b.backend().equals(backend)).findFirst().orElseThrow();
    }

    /** The backend the router's own snapshot says owns a key. */
    Backend ownerOf(String key) {
        return pool.snapshot().owner(key).orElseThrow();
    }

    @Override
    public void close() {
        server.close();
        backends.forEach(TestBackend::close);
    }
}
