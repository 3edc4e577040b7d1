package io.insika.router.server.cli;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.Collectors;

import org.junit.jupiter.api.Test;

import io.helidon.common.mapper.MapperManager;
import io.helidon.metadata.MetadataConstants;
import io.helidon.metadata.MetadataDiscovery;
import io.helidon.metadata.MetadataFile;
import io.helidon.metadata.hson.Hson;
import io.helidon.service.registry.Lookup;
import io.helidon.service.registry.ServiceInfo;
import io.helidon.service.registry.ServiceRegistry;
import io.helidon.service.registry.ServiceRegistryConfig;
import io.helidon.service.registry.ServiceRegistryManager;
import io.helidon.webserver.WebServer;
import io.helidon.webserver.http.HttpRouting;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * {@code serve} makes Helidon's registry from a list instead of discovering it; the list must
 * stay what discovery would find, or a Helidon upgrade silently leaves a service out.
 */
class HelidonRegistryTest {

    /** What Helidon's jars ask the registry to load through ServiceLoader; the router needs none of it. */
    private static final Set<String> SERVICE_LOADER_CONTRACTS_LEFT_OUT = Set.of(
            "io.helidon.common.mapper.spi.MapperProvider",
            "io.helidon.config.spi.ConfigParser",
            "io.helidon.config.spi.ConfigFilter",
            "io.helidon.config.spi.ConfigSourceProvider",
            "io.helidon.webserver.spi.ServerFeatureProvider");

    @Test
    void theListHoldsExactlyTheServicesHelidonsJarsDescribe() throws IOException {
        Set<String> described = new TreeSet<>();
        for (MetadataFile file : MetadataDiscovery.instance().list(MetadataConstants.SERVICE_REGISTRY_FILE)) {
            try (InputStream in = file.inputStream()) {
                for (Hson.Struct module : Hson.parse(in).asArray().getStructs()) {
                    for (Hson.Struct service : module.structArray("services").orElseThrow()) {
                        described.add(service.stringValue("descriptor").orElseThrow());
                    }
                }
            }
        }

        assertEquals(described, new TreeSet<>(HelidonRegistry.DESCRIPTORS));
    }

    @Test
    void theServiceLoaderContractsLeftOutAreTheKnownOnes() throws IOException {
        Set<String> contracts = new TreeSet<>();
        for (MetadataFile file : MetadataDiscovery.instance().list(MetadataConstants.SERVICE_LOADER_FILE)) {
            try (BufferedReader in = new BufferedReader(new InputStreamReader(file.inputStream(), StandardCharsets.UTF_8))) {
                in.lines().map(String::trim).filter(line -> !line.isEmpty() && !line.startsWith("#"))
                        .forEach(contracts::add);
            }
        }

        assertEquals(new TreeSet<>(SERVICE_LOADER_CONTRACTS_LEFT_OUT), contracts);
    }

    @Test
    void itHoldsWhatDiscoveryFindsButTheServiceLoaderProviders() {
        ServiceRegistryManager discovering = ServiceRegistryManager.create(ServiceRegistryConfig.create());
        try {
            Set<String> discovered = discovering.registry().lookupServices(Lookup.EMPTY).stream()
                    .map(service -> service.descriptorType().fqName())
                    .filter(type -> !type.startsWith("io.helidon.service.registry.ServiceLoader__"))
                    .collect(Collectors.toCollection(TreeSet::new));

            assertEquals(discovered, descriptorTypes(HelidonRegistry.create()));
        } finally {
            discovering.shutdown();
        }
    }

    @Test
    void aListedServiceThatIsNotOnTheClassPathMeansHelidonDiscoversThemAll() {
        List<String> listed = new ArrayList<>(HelidonRegistry.DESCRIPTORS);
        listed.add("io.helidon.removed.Gone__ServiceDescriptor");

        Set<String> types = descriptorTypes(HelidonRegistry.create(listed));

        assertTrue(types.containsAll(HelidonRegistry.DESCRIPTORS), types.toString());
        assertTrue(types.stream().anyMatch(type -> type.startsWith("io.helidon.service.registry.ServiceLoader__")),
                "the ServiceLoader providers only discovery adds: " + types);
    }

    @Test
    void aWebServerStartsAndAnswersOnIt() throws Exception {
        ServiceRegistry registry = HelidonRegistry.create();
        assertNotNull(registry.get(MapperManager.class), "the mappers Helidon's routing converts parameters with");
        WebServer server = WebServer.builder().host("127.0.0.1").port(0).shutdownHook(false).featuresDiscoverServices(false)
                .serviceRegistry(registry)
                .routing(HttpRouting.builder().get("/", (req, res) -> res.send("up")))
                .build()
                .start();
        try (HttpClient client = HttpClient.newHttpClient()) {
            HttpResponse<String> answer = client.send(HttpRequest.newBuilder(
                    URI.create("http://127.0.0.1:" + server.port() + "/")).build(), HttpResponse.BodyHandlers.ofString());
            assertEquals(200, answer.statusCode());
            assertEquals("up", answer.body());
        } finally {
            server.stop();
        }
    }

    private static Set<String> descriptorTypes(ServiceRegistry registry) {
        return registry.lookupServices(Lookup.EMPTY).stream()
                .map(ServiceInfo::descriptorType)
                .map(type -> type.fqName())
                .collect(Collectors.toCollection(TreeSet::new));
    }
}
