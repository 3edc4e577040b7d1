package io.insika.router.server.config;

import java.nio.file.Path;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import static org.hamcrest.MatcherAssert.assertThat;
import static org.hamcrest.Matchers.empty;
import static org.hamcrest.Matchers.is;

class SettingsTest {

    @TempDir
    Path dir;
    private ConfigFiles files;

    @BeforeEach
    void setUp() {
        files = new ConfigFiles(dir);
    }

    @Test
    void everyKeyAndEveryVariableIsInTheTableOnce() {
        Set<String> seen = new HashSet<>();
        List<String> twice = Settings.all().stream()
                .flatMap(key -> java.util.stream.Stream.concat(java.util.stream.Stream.of(key.key()), key.variable().stream()))
                .filter(name -> !seen.add(name)).toList();
        assertThat(twice, empty());
    }

    @Test
    void everyVariableIsAnInsikaRouterOneAndEveryDocLineFitsATableCell() {
        List<String> wrong = Settings.all().stream()
                .filter(key -> key.variable().filter(v -> !v.matches("INSIKA_ROUTER_[A-Z][A-Z0-9_]*")).isPresent()
                        || key.doc().contains("|") || key.doc().contains("\n") || !key.doc().endsWith("."))
                .map(ConfigKey::key).toList();
        assertThat(wrong, empty());
    }

    @Test
    void aDefaultIsShownAsItsTypePrintsItUnlessItIsNoValidValue() {
        List<String> wrong = Settings.all().stream().filter(key -> key instanceof Setting<?> setting
                        && !shownRight(setting)).map(ConfigKey::key).toList();
        assertThat(wrong, empty());
    }

    // a real default reads back as itself; a placeholder (a required DNS key) is described in words
    private static <T> boolean shownRight(Setting<T> setting) {
        String printed = setting.type().print(setting.fallback());
        boolean valid = setting.type().parse(printed).map(setting.type()::print).filter(printed::equals).isPresent();
        boolean shownAsValue = setting.defaultText().equals("`" + (printed.isEmpty() ? "\"\"" : printed) + "`");
        return valid == shownAsValue;
    }

    @Test
    void onlyTheProxyingKeysAreReloadableAndTheStrategyOnlyWithTheOptIn() {
        assertThat(keys(Reload.LIVE), is(List.of("strategy.allow-change-on-reload", "backends.max-requests",
                "backends.max-tunnels", "backends.static", "proxy.body-max-bytes", "proxy.backend-timeout",
                "proxy.client-body-timeout", "proxy.client-send-timeout", "proxy.client-body-min-rate",
                "proxy.stream-idle-timeout",
                "proxy.trusted-proxies", "proxy.access-log", "logging.level",
                "routes")));
        assertThat(keys(Reload.OPT_IN), is(List.of("strategy.name", "strategy.options")));
    }

    @Test
    void aChangedTimeoutIsReloadableAndAChangedPortNeedsARestart() {
        RouterConfig running = files.load("proxy: { backend-timeout: 5s }");

        ConfigChanges timeout = ConfigChanges.between(running, files.load("proxy: { backend-timeout: 6s }"));
        ConfigChanges port = ConfigChanges.between(running, files.load("server: { port: 7000 }\nproxy: { backend-timeout: 5s }"));

        assertThat(names(timeout.changed()), is(List.of("proxy.backend-timeout")));
        assertThat(timeout.reloadable(), is(true));
        assertThat(names(port.needRestart()), is(List.of("server.port")));
    }

    @Test
    void aNewStrategyNeedsTheOptInOfTheNewFile() {
        RouterConfig running = files.load("strategy: { name: ketama }");

        ConfigChanges plain = ConfigChanges.between(running, files.load("strategy: { name: rendezvous }"));
        ConfigChanges optedIn = ConfigChanges.between(running,
                files.load("strategy: { name: rendezvous, allow-change-on-reload: true }"));

        // ketama's effective options (compat: none) go with it: rendezvous has none
        assertThat(names(plain.needRestart()), is(List.of("strategy.name", "strategy.options")));
        assertThat(names(optedIn.changed()), is(List.of("strategy.name", "strategy.options",
                "strategy.allow-change-on-reload")));
        assertThat(optedIn.reloadable(), is(true));
    }

    @Test
    void switchingToDnsModeNeedsARestart() {
        RouterConfig running = files.load("backends: { static: [ \"http://10.0.0.1:9292\" ] }");

        ConfigChanges changes = ConfigChanges.between(running, files.load("backends: { dns: { name: a.test, port: 80 } }"));

        assertThat(names(changes.needRestart()).contains("backends.dns.name"), is(true));
        assertThat(names(changes.changed()).contains("backends.static"), is(true));
    }

    @Test
    void aRouteChangedInPlaceIsAChangeThoughCheckPrintsTheSameCount() {
        String route = "routes: [ { path: /a, keys: [ { type: header, name: %s } ] } ]";
        RouterConfig running = files.load(route.formatted("X-One"));

        ConfigChanges changes = ConfigChanges.between(running, files.load(route.formatted("X-Two")));

        assertThat(names(changes.changed()), is(List.of("routes")));
        assertThat(changes.reloadable(), is(true));
    }

    @Test
    void theSameFileEnvironmentAsideChangesNothing() {
        RouterConfig fromYaml = files.load("server: { port: 7000 }");
        RouterConfig fromEnvironment = files.loadDefault(Map.of("INSIKA_ROUTER_PORT", "7000"));

        assertThat(ConfigChanges.between(fromYaml, fromEnvironment).changed(), empty());
    }

    private static List<String> keys(Reload reload) {
        return Settings.all().stream().filter(key -> key.reload() == reload).map(ConfigKey::key).toList();
    }

    private static List<String> names(List<ConfigKey> keys) {
        return keys.stream().map(ConfigKey::key).toList();
    }
}
