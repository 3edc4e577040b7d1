package io.insika.router.server.proxy;

import java.util.ArrayList;
import java.util.List;

import org.junit.jupiter.api.extension.AfterEachCallback;
import org.junit.jupiter.api.extension.ExtensionContext;

/** Starts routers, with their backends, for one test and closes them all after it. */
final class Routers implements AfterEachCallback {

    private final List<RouterFixture> started = new ArrayList<>();

    /** {@link RouterFixture#withBackends}, closed after the test. */
    RouterFixture withBackends(int count, ProxySettings settings) {
        RouterFixture router = RouterFixture.withBackends(count, settings);
        started.add(router);
        return router;
    }

    @Override
    public void afterEach(ExtensionContext context) {
        started.forEach(RouterFixture::close);
        started.clear();
    }
}
