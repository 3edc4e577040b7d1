package io.insika.router.server.config;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;

import io.insika.router.server.testing.FixturePlugins;
import org.junit.jupiter.api.Test;

import static org.hamcrest.MatcherAssert.assertThat;
import static org.hamcrest.Matchers.empty;

/** Every setting the loader reads is a row of the table, documented and named in the shipped sample. */
class DocumentedSettingsTest {

    private static final Path DOCS = Path.of("../docs/configuration.md");

    @Test
    void everyEnvironmentVariableIsDocumentedAndNamedInTheShippedSample() throws Exception {
        String docs = Files.readString(DOCS);
        String shipped = Files.readString(ShippedConfigTest.SHIPPED);
        List<String> missing = new ArrayList<>();
        if (!docs.contains("`" + EnvironmentOverrides.CONFIG + "`")) {
            missing.add(EnvironmentOverrides.CONFIG + " not in docs/configuration.md");
        }
        for (ConfigKey key : Settings.all()) {
            key.variable().filter(variable -> !shipped.contains(variable))
                    .ifPresent(variable -> missing.add(variable + " not in conf/insika-router.yaml"));
        }
        assertThat(missing, empty());
    }

    @Test
    void everyKeyTheLoaderReportsIsARowOfTheTable() {
        RouterConfigLoader loader = new RouterConfigLoader(FixturePlugins.registry());
        Set<String> keys = new TreeSet<>(loader.load(Optional.empty(), Map.of()).origins().sources().keySet());
        keys.addAll(loader.load(Optional.empty(), Map.of("INSIKA_ROUTER_BACKENDS_DNS", "a.test",
                "INSIKA_ROUTER_BACKEND_PORT", "80")).origins().sources().keySet());
        List<String> missing = keys.stream().filter(key -> Settings.byKey(key).isEmpty()).toList();
        assertThat(missing, empty());
    }
}
