package io.insika.router.distribution;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import java.util.stream.Collectors;

import io.helidon.json.JsonObject;
import io.helidon.json.JsonParser;
import io.helidon.json.JsonValue;

/**
 * The components of a CycloneDX bill of materials, as the cyclonedx-maven-plugin writes it for
 * the distribution: one per runtime dependency, the router's own modules included.
 */
record Sbom(List<Component> components) {

    /** One Maven artifact: its coordinates and the licenses its pom declares (SPDX id, or name). */
    record Component(String group, String name, String version, List<String> licenses) {

        /** The file name the assembly gives its jar in lib/. */
        String jar() {
            return name + "-" + version + ".jar";
        }

        /** The router's own modules, under the distribution's LICENSE. */
        boolean ours() {
            return group.equals("io.insika.router");
        }

        String license() {
            return String.join(", ", licenses);
        }
    }

    static Sbom read(Path file) {
        try {
            JsonObject bom = JsonParser.create(Files.readString(file)).readJsonObject();
            return new Sbom(bom.arrayValue("components").orElseThrow().values().stream()
                    .map(JsonValue::asObject).map(Sbom::component).toList());
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** The component whose jar has this file name. */
    Optional<Component> ofJar(String fileName) {
        List<Component> matching = components.stream().filter(c -> c.jar().equals(fileName)).toList();
        if (matching.size() > 1) {
            throw new IllegalStateException(fileName + " is the jar of " + matching.size() + " components: "
                    + matching.stream().map(c -> c.group() + ":" + c.name()).collect(Collectors.joining(", ")));
        }
        return matching.stream().findFirst();
    }

    private static Component component(JsonObject component) {
        List<String> licenses = component.arrayValue("licenses").map(a -> a.values().stream()
                .map(JsonValue::asObject).map(Sbom::license).toList()).orElse(List.of());
        return new Component(component.stringValue("group", ""), component.stringValue("name").orElseThrow(),
                component.stringValue("version").orElseThrow(), licenses);
    }

    private static String license(JsonObject choice) {
        if (choice.containsKey("expression")) {
            return choice.stringValue("expression").orElseThrow();
        }
        JsonObject license = choice.objectValue("license").orElseThrow();
        return license.stringValue("id").or(() -> license.stringValue("name")).orElseThrow();
    }
}
