package io.insika.router.server.config;

import java.util.Objects;
import java.util.Optional;
import java.util.function.Function;

/**
 * A key of {@link Settings} that holds a list or a mapping ({@code backends.static},
 * {@code strategy.options}, {@code routes}): its own reader reads it, the table names it.
 *
 * @param key         the dotted YAML path
 * @param variable    the variable that replaces it, if any
 * @param defaultText the default as the docs show it, in Markdown
 * @param reload      whether a running router can take a change of it
 * @param doc         one line for the docs' reference table
 * @param printed     the effective value as {@code check} prints it: a summary, for routes
 * @param value       the effective value whole, for comparing two configurations
 * @param whole       the effective value whole as text, the same in every process (no set's
 *                    iteration order, no identity): {@link #canonical}
 */
public record StructuredKey(String key, Optional<String> variable, String defaultText, Reload reload, String doc,
                            Function<RouterConfig, String> printed, Function<RouterConfig, Object> value,
                            Function<RouterConfig, String> whole)
        implements ConfigKey {

    @Override
    public String canonical(RouterConfig config) {
        return whole.apply(config);
    }

    @Override
    public String text(RouterConfig config) {
        return printed.apply(config);
    }

    /** Compared whole, not as printed: {@code check} prints a summary ("5 route(s)"). */
    @Override
    public boolean differs(RouterConfig running, RouterConfig next) {
        return !Objects.equals(value.apply(running), value.apply(next));
    }
}
