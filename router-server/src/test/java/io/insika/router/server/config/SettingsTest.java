package io.insika.router.server.config;

import java.util.HashSet;
import java.util.List;
import java.util.Set;

import org.junit.jupiter.api.Test;

import static org.hamcrest.MatcherAssert.assertThat;
import static org.hamcrest.Matchers.empty;
import static org.hamcrest.Matchers.is;

class SettingsTest {

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
                .filter(key -> key.variable().filter(v -> !v.matches("INSIKA_ROUTER_[A-Z_]+")).isPresent()
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
                "proxy.client-body-timeout", "proxy.client-send-timeout", "proxy.trusted-proxies", "proxy.access-log",
                "routes")));
        assertThat(keys(Reload.OPT_IN), is(List.of("strategy.name", "strategy.options")));
    }

    private static List<String> keys(Reload reload) {
        return Settings.all().stream().filter(key -> key.reload() == reload).map(ConfigKey::key).toList();
    }
}
