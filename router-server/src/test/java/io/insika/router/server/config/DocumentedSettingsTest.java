package io.insika.router.server.config;

import java.lang.reflect.Field;
import java.lang.reflect.Modifier;
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

/** Every setting the loader reads is in docs/configuration.md and the shipped sample: none can be added silently. */
class DocumentedSettingsTest {

    private static final Path DOCS = Path.of("../docs/configuration.md");

    @Test
    void everyEnvironmentVariableIsDocumentedAndNamedInTheShippedSample() throws Exception {
        String docs = Files.readString(DOCS);
        String shipped = Files.readString(ShippedConfigTest.SHIPPED);
        List<String> missing = new ArrayList<>();
        for (String variable : variables()) {
            if (!docs.contains("`" + variable + "`")) {
                missing.add(variable + " not in docs/configuration.md");
            }
            if (!variable.equals(EnvironmentOverrides.CONFIG) && !shipped.contains(variable)) {
                missing.add(variable + " not in conf/insika-router.yaml");
            }
        }
        assertThat(missing, empty());
    }

    @Test
    void everyYamlKeyIsDocumented() throws Exception {
        String docs = Files.readString(DOCS);
        RouterConfigLoader loader = new RouterConfigLoader(FixturePlugins.registry());
        Set<String> keys = new TreeSet<>(loader.load(Optional.empty(), Map.of()).origins().sources().keySet());
        keys.addAll(loader.load(Optional.empty(), Map.of(EnvironmentOverrides.BACKENDS_DNS, "a.test",
                EnvironmentOverrides.BACKEND_PORT, "80")).origins().sources().keySet());
        List<String> missing = keys.stream().filter(key -> !docs.contains("`" + key + "`")).toList();
        assertThat(missing, empty());
    }

    private static List<String> variables() throws IllegalAccessException {
        List<String> names = new ArrayList<>();
        for (Field field : EnvironmentOverrides.class.getFields()) {
            if (Modifier.isStatic(field.getModifiers()) && field.getType() == String.class) {
                names.add((String) field.get(null));
            }
        }
        return names;
    }
}
