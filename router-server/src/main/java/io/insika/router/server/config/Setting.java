package io.insika.router.server.config;

import java.util.Optional;
import java.util.function.Function;

/**
 * One scalar key of {@link Settings}: everything the loader, {@code check} and the docs know of it.
 *
 * @param key         the dotted YAML path, such as {@code proxy.backend-timeout}
 * @param variable    the {@code INSIKA_ROUTER_*} variable that beats the YAML, if any
 * @param type        how its text is read and checked
 * @param fallback    the default; for a key without one (a required DNS key) what is returned
 *                    after the problem was recorded
 * @param defaultText the default as the docs show it, in Markdown
 * @param reload      whether a running router can take a change of it
 * @param doc         one line for the docs' reference table
 * @param printed     the effective value of a loaded configuration, as {@code check} prints it
 * @param <T>         the value's type
 */
public record Setting<T>(String key, Optional<String> variable, ValueType<T> type, T fallback, String defaultText,
                         Reload reload, String doc, Function<RouterConfig, String> printed) implements ConfigKey {

    /**
     * A key whose default is {@code fallback} and whose effective value prints as its type prints.
     *
     * @param variable the overriding variable, or {@link Settings#NO_VARIABLE}
     * @param value    where a loaded configuration holds it
     */
    static <T> Setting<T> of(String key, String variable, ValueType<T> type, T fallback, Reload reload, String doc,
                             Function<RouterConfig, T> value) {
        return printed(key, variable, type, fallback, reload, doc, config -> type.print(value.apply(config)));
    }

    /**
     * A key {@code check} prints in its own words, such as {@code (none)} for empty.
     *
     * @param variable the overriding variable, or {@link Settings#NO_VARIABLE}
     * @param printed  the effective value of a loaded configuration, as text
     */
    static <T> Setting<T> printed(String key, String variable, ValueType<T> type, T fallback, Reload reload,
                                  String doc, Function<RouterConfig, String> printed) {
        String shown = type.print(fallback);
        return new Setting<>(key, Optional.of(variable).filter(v -> !v.isEmpty()), type, fallback,
                "`" + (shown.isEmpty() ? "\"\"" : shown) + "`", reload, doc, printed);
    }

    /** The same key, its default described in words: a key with no default, or an empty one that means more. */
    Setting<T> defaultShownAs(String markdown) {
        return new Setting<>(key, variable, type, fallback, markdown, reload, doc, printed);
    }

    @Override
    public String text(RouterConfig config) {
        return printed.apply(config);
    }

    /** Compared as printed: every scalar prints whole, so equal text is an equal value. */
    @Override
    public boolean differs(RouterConfig running, RouterConfig next) {
        return !text(running).equals(text(next));
    }
}
