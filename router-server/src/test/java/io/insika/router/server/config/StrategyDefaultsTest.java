package io.insika.router.server.config;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;

import io.insika.router.api.PluginOptions;
import io.insika.router.server.Router;
import io.insika.router.server.discovery.BackendDiscovery;
import io.insika.router.server.plugin.PluginRegistry;
import io.insika.router.server.routing.BackendPool;
import io.insika.router.server.testing.FixturePlugins;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import static org.hamcrest.MatcherAssert.assertThat;
import static org.hamcrest.Matchers.empty;
import static org.hamcrest.Matchers.is;
import static org.hamcrest.Matchers.not;

/**
 * A strategy option written out at its default is the configuration that leaves it out: the same
 * ring fingerprint (replicas agree), no change for a reload or {@code check --against}. Another
 * effective option is a change. Loaded with the real built-in strategies.
 */
class StrategyDefaultsTest {

    private static final PluginRegistry BUILT_IN = FixturePlugins.builtIn();

    @TempDir
    Path dir;

    @Test
    void everyBuiltInStrategyFingerprintsItsDefaultsWrittenOutAsLeftOut() {
        List<String> disagree = new ArrayList<>();
        for (String strategy : BUILT_IN.strategyNames()) {
            String defaults = options(BUILT_IN.strategy(strategy).orElseThrow().resolve(PluginOptions.empty()));
            if (!fingerprint(load(strategy, defaults)).equals(fingerprint(load(strategy, "")))) {
                disagree.add(strategy + " {" + defaults + "}");
            }
        }
        assertThat(disagree, empty());
    }

    @Test
    void ketamaWithCompatNoneWrittenOutIsTheSameConfigurationAsWithout() {
        RouterConfig omitted = load("ketama", "");
        RouterConfig written = load("ketama", "compat: none");

        assertThat(fingerprint(written), is(fingerprint(omitted)));
        assertThat(ConfigChanges.between(omitted, written).names(), is(""));
        assertThat(ConfigChanges.between(written, omitted).names(), is(""));
        // what /observe/config reports and check --against compares, key by key
        assertThat(Settings.STRATEGY_OPTIONS.canonical(written), is(Settings.STRATEGY_OPTIONS.canonical(omitted)));
    }

    @Test
    void ketamaWithAnotherCompatIsAnotherRingAndAStrategyChange() {
        RouterConfig omitted = load("ketama", "");
        RouterConfig libketama = load("ketama", "compat: libketama");

        assertThat(fingerprint(libketama), not(fingerprint(omitted)));
        assertThat(ConfigChanges.between(omitted, libketama).changesStrategy(), is(true));
        assertThat(ConfigChanges.between(omitted, libketama).reloadable(), is(false));
    }

    private RouterConfig load(String strategy, String options) {
        String yaml = """
                strategy:
                  name: %s
                %s
                backends:
                  static:
                    - http://127.0.0.1:9301
                    - http://127.0.0.1:9302
                    - http://127.0.0.1:9303
                """.formatted(strategy, options.isEmpty() ? "" : "  options: { " + options + " }");
        ConfigFiles files = new ConfigFiles(dir);
        return new RouterConfigLoader(BUILT_IN).load(Optional.of(files.write("router.yaml", yaml)), Map.of());
    }

    // as a running router computes it: its pool, filled by discovery
    private static String fingerprint(RouterConfig config) {
        BackendPool pool = Router.newPool(config, BUILT_IN);
        BackendDiscovery.start(config.backends(), pool).close();
        return pool.snapshot().fingerprint();
    }

    private static String options(PluginOptions options) {
        return String.join(", ", options.names().stream()
                .map(name -> name + ": " + options.get(name).orElseThrow()).toList());
    }
}
