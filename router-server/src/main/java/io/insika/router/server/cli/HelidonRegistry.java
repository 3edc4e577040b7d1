package io.insika.router.server.cli;

import java.lang.System.Logger.Level;
import java.util.List;

import io.helidon.service.registry.ServiceDescriptor;
import io.helidon.service.registry.ServiceRegistry;
import io.helidon.service.registry.ServiceRegistryConfig;
import io.helidon.service.registry.ServiceRegistryManager;

/**
 * Helidon's service registry for {@code serve}, made from a list of its services instead of by
 * discovery.
 *
 * <p>Discovery reads the manifest of every jar, parses each jar's {@code service-registry.json}
 * (its numbers are {@code BigDecimal}s, whose class initialisation alone takes 25-35 ms on JDK
 * 25, 88 ms interpreted) and loads, through {@code ServiceLoader}, the providers of five contracts that
 * Helidon's jars name in their {@code service.loader} files. On two cores this was the longest
 * path of the start: the main thread waited for it. The list holds exactly the services those
 * JSON files describe ({@code HelidonRegistryTest} compares the two, so a Helidon upgrade that
 * adds one fails the build); the {@code ServiceLoader} contracts are left out because the router
 * asks for none of them: config parsers, filters and sources (the router reads its YAML itself),
 * mapper providers beyond Helidon's defaults (none on the class path) and server features (both
 * servers turn feature discovery off).
 */
final class HelidonRegistry {

    private static final System.Logger LOG = System.getLogger(HelidonRegistry.class.getName());

    /** The descriptor classes of Helidon's own services, as its jars' service-registry.json name them. */
    static final List<String> DESCRIPTORS = List.of(
            "io.helidon.common.config.ConfigFactory__ServiceDescriptor",
            "io.helidon.common.mapper.DefaultMapperProvider__ServiceDescriptor",
            "io.helidon.common.mapper.DefaultResolverService__ServiceDescriptor",
            "io.helidon.common.mapper.MappersFactory__ServiceDescriptor",
            "io.helidon.config.ConfigProvider__ServiceDescriptor",
            "io.helidon.config.ConfigurationValueFactory__ServiceDescriptor",
            "io.helidon.config.MetaConfigFactory__ServiceDescriptor",
            "io.helidon.http.Headers__ServiceDescriptor",
            "io.helidon.http.HttpPrologue__ServiceDescriptor",
            "io.helidon.http.ServerRequestHeaders__ServiceDescriptor",
            "io.helidon.metrics.api.MeterRegistryFactory__ServiceDescriptor",
            "io.helidon.metrics.api.MetricsFactoryFactory__ServiceDescriptor",
            "io.helidon.service.registry.EventManagerImpl__ServiceDescriptor",
            "io.helidon.service.registry.InterceptionMetadata__ServiceDescriptor",
            "io.helidon.service.registry.PerRequestScopeHandler__ServiceDescriptor",
            "io.helidon.service.registry.Scopes__ServiceDescriptor",
            "io.helidon.service.registry.ServiceRegistry__ServiceDescriptor",
            "io.helidon.webserver.LoomServer__ServiceDescriptor",
            "io.helidon.webserver.RequestScopeFeatureProvider__ServiceDescriptor",
            "io.helidon.webserver.WebServerService__ServiceDescriptor",
            "io.helidon.webserver.WebServerStarterService__ServiceDescriptor",
            "io.helidon.webserver.http.HttpEntryPointsImpl__ServiceDescriptor",
            "io.helidon.webserver.http.ServerRequest__ServiceDescriptor",
            "io.helidon.webserver.http.ServerResponse__ServiceDescriptor",
            "io.helidon.webserver.cors.CorsFeature__ServiceDescriptor");

    private HelidonRegistry() {
    }

    /**
     * The registry of the listed services; if one of them cannot be loaded (a class path unlike
     * the distribution's), the registry Helidon discovers, as it would without this class.
     */
    static ServiceRegistry create() {
        return create(DESCRIPTORS);
    }

    static ServiceRegistry create(List<String> descriptors) {
        ServiceRegistryConfig.Builder config = ServiceRegistryConfig.builder()
                .discoverServices(false)
                .discoverServicesFromServiceLoader(false);
        try {
            for (String name : descriptors) {
                // generated descriptors keep their one instance in a public INSTANCE field
                config.addServiceDescriptor((ServiceDescriptor<?>) Class.forName(name).getField("INSTANCE").get(null));
            }
        } catch (ReflectiveOperationException | LinkageError | ClassCastException e) {
            LOG.log(Level.WARNING, "Helidon's services are not the ones listed (" + e + "); discovering them, slower");
            return ServiceRegistryManager.create(ServiceRegistryConfig.create()).registry();
        }
        return ServiceRegistryManager.create(config.build()).registry();
    }
}
