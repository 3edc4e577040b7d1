package io.insika.router.server.logging;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.Optional;
import java.util.logging.Level;
import java.util.logging.Logger;

import io.insika.router.server.ConfigReload;
import io.insika.router.server.Router;
import io.insika.router.server.config.ConfigException;
import io.insika.router.server.config.RouterConfig;
import io.insika.router.server.config.RouterConfigLoader;
import io.insika.router.server.testing.FixturePlugins;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import static org.hamcrest.MatcherAssert.assertThat;
import static org.hamcrest.Matchers.contains;
import static org.hamcrest.Matchers.is;
import static org.junit.jupiter.api.Assertions.assertThrows;

/** {@code logging.level}: how much of its own log the router writes, changed by a reload too. */
class LogLevelTest {

    private static final Logger PROXY = Logger.getLogger("io.insika.router.server.proxy");
    private static final Logger HELIDON = Logger.getLogger("io.helidon.webserver");

    private final RouterConfigLoader loader = new RouterConfigLoader(FixturePlugins.builtIn());

    @TempDir
    Path dir;

    @AfterEach
    void backToTheDefault() {
        LogLevel.INFO.applyToRouterLog();
    }

    @Test
    void theLevelIsReadFromTheYamlOrTheVariableByTheNamesOperatorsKnow() {
        assertThat(loader.load(Optional.empty(), Map.of()).logLevel(), is(LogLevel.INFO));
        assertThat(loader.load(Optional.empty(), Map.of("INSIKA_ROUTER_LOG_LEVEL", "DEBUG")).logLevel(),
                is(LogLevel.DEBUG));
        assertThat(assertThrows(ConfigException.class, () -> loader.load(Optional.empty(),
                Map.of("INSIKA_ROUTER_LOG_LEVEL", "warning"))).problems(),
                contains("INSIKA_ROUTER_LOG_LEVEL: [warning] (expected: debug, info, warn or error)"));
    }

    @Test
    void theLevelAppliesToTheRoutersLoggersAndLeavesHelidonsAlone() {
        Level helidon = HELIDON.getLevel();

        LogLevel.WARN.applyToRouterLog();

        assertThat(PROXY.isLoggable(Level.INFO), is(false));
        assertThat(PROXY.isLoggable(Level.WARNING), is(true));
        assertThat(HELIDON.getLevel(), is(helidon));
        LogLevel.DEBUG.applyToRouterLog();
        assertThat(PROXY.isLoggable(Level.FINE), is(true));
    }

    @Test
    void aReloadChangesTheLevelOfTheRunningRouter() throws Exception {
        Path yaml = dir.resolve("router.yaml");
        String server = "server: { host: 127.0.0.1, port: 0, admin-port: 0 }\n";
        Files.writeString(yaml, server + "logging: { level: warn }\n");
        RouterConfig config = loader.load(Optional.of(yaml), Map.of());
        config.logLevel().applyToRouterLog();
        try (Router router = Router.start(config, FixturePlugins.builtIn())) {
            ConfigReload reload = new ConfigReload(router, () -> loader.load(Optional.of(yaml), Map.of()));
            assertThat(PROXY.isLoggable(Level.INFO), is(false));

            Files.writeString(yaml, server + "logging: { level: debug }\n");

            assertThat(reload.reload(), is(ConfigReload.Result.APPLIED));
            assertThat(PROXY.isLoggable(Level.FINE), is(true));
        }
    }
}
