package io.insika.router.api;

/**
 * Makes {@link KeyExtractor key extractors} of one type; the service a key-extractor plugin
 * registers.
 *
 * <p>The router finds providers with {@link java.util.ServiceLoader}: a plugin jar lists its
 * implementation in {@code META-INF/services/io.insika.router.api.KeyExtractorProvider}. A route in
 * the YAML names an extractor by {@link #type()}; the router calls {@link #create(PluginOptions)}
 * once per such route at start-up.
 *
 * <p>Implementations must have a public no-argument constructor and be thread-safe.
 */
public interface KeyExtractorProvider {

    /**
     * The stable, lowercase, dash-separated type operators write in YAML, such as
     * {@code json-field} or {@code header}. Two providers with the same type stop the router's
     * start.
     *
     * @return the extractor type
     */
    String type();

    /**
     * Validates the options and makes an extractor from them. Every option is checked here,
     * once; an option the extractor does not know is an error too.
     *
     * @param options the options written under the extractor in YAML
     * @return the extractor
     * @throws PluginConfigException if an option is missing, unknown or invalid
     */
    KeyExtractor create(PluginOptions options);
}
