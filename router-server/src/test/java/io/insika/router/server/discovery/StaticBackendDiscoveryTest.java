package io.insika.router.server.discovery;

import java.util.List;
import java.util.logging.Level;

import io.insika.router.api.Backend;
import io.insika.router.server.config.StaticBackends;
import io.insika.router.server.routing.BackendPool;
import io.insika.router.server.testing.FixturePlugins;
import io.insika.router.server.testing.LogCapture;
import org.junit.jupiter.api.Test;

import static org.hamcrest.MatcherAssert.assertThat;
import static org.hamcrest.Matchers.contains;
import static org.hamcrest.Matchers.hasItem;
import static org.hamcrest.Matchers.is;
import static org.hamcrest.Matchers.startsWith;

class StaticBackendDiscoveryTest {

    private final BackendPool pool = FixturePlugins.pool(FixturePlugins.firstBackend(), FixturePlugins.firstBackend());

    @Test
    void aStaticListFillsThePoolOnceAtStart() {
        List<Backend> backends = List.of(Backend.parse("http://127.0.0.1:9293"), Backend.parse("http://127.0.0.1:9292"));

        try (BackendDiscovery discovery = BackendDiscovery.start(new StaticBackends(backends), pool)) {
            assertThat(discovery, is(org.hamcrest.Matchers.instanceOf(StaticBackendDiscovery.class)));
        }

        assertThat(pool.snapshot().backends().stream().map(Backend::id).toList(),
                contains("127.0.0.1:9292", "127.0.0.1:9293"));
    }

    @Test
    void anEmptyListIsAllowedButWarnedAbout() {
        try (LogCapture log = LogCapture.of(BackendDiscovery.class)) {
            BackendDiscovery.start(new StaticBackends(List.of()), pool).close();

            assertThat(pool.snapshot().isEmpty(), is(true));
            assertThat(log.messages(Level.WARNING), hasItem(startsWith("Backends from static list: none (no backends are configured)")));
        }
    }
}
