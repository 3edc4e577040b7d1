package io.insika.router.strategies.extract.path;

import java.util.List;
import java.util.Optional;
import java.util.Set;

import io.insika.router.api.KeyExtractor;
import io.insika.router.api.KeyExtractorProvider;
import io.insika.router.api.PathTemplate;
import io.insika.router.api.PluginOptions;

/**
 * {@code path-segment}: the key is a path segment captured as {@code parameter}, either by the
 * route's path template or, when {@code template} is given, by that template matched against the
 * raw request path (such as {@code /_sigx/actor/r/{token}/*}). A path the template does not
 * match, and a blank segment, are no key.
 */
public final class PathSegmentKeyExtractorProvider implements KeyExtractorProvider {

    /** The type written in YAML. */
    public static final String TYPE = "path-segment";

    private static final String TEMPLATE_EXPECTED = "a path template starting with /, whose parameters are "
            + "whole, uniquely named segments, such as /_sigx/actor/r/{token}/*";

    @Override
    public String type() {
        return TYPE;
    }

    @Override
    public KeyExtractor create(PluginOptions options) {
        options.requireOnly(Set.of("parameter", "template"));
        String parameter = options.required("parameter", "the name of a path parameter such as token");
        Optional<PathTemplate> template = options.get("template").map(text -> parse(options, text));
        if (template.isPresent()) {
            List<String> names = template.get().parameterNames();
            if (!names.contains(parameter)) {
                throw options.invalid("parameter", parameter, names.isEmpty()
                        ? "a parameter of the template, which captures none"
                        : "a parameter of the template: " + String.join(", ", names));
            }
        }
        return new PathSegmentKeyExtractor(template, parameter);
    }

    private static PathTemplate parse(PluginOptions options, String text) {
        try {
            return PathTemplate.parse(text);
        } catch (IllegalArgumentException malformed) {
            throw options.invalid("template", text, TEMPLATE_EXPECTED);
        }
    }
}
