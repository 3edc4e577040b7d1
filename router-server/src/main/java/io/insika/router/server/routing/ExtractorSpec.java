package io.insika.router.server.routing;

import java.util.Objects;

import io.insika.router.api.PluginOptions;

/**
 * One key extractor as configured: its type and its options.
 *
 * @param type    the extractor's {@code type()}, such as {@code json-field}
 * @param options its options, carrying their configuration path for error messages
 */
public record ExtractorSpec(String type, PluginOptions options) {

    public ExtractorSpec {
        Objects.requireNonNull(type, "type");
        Objects.requireNonNull(options, "options");
    }
}
