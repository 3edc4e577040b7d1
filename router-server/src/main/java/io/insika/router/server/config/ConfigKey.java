package io.insika.router.server.config;

import java.util.Optional;

/**
 * One row of {@link Settings}: a key as {@code check} reports it, with the variable that beats
 * it, its doc line and whether a reload can apply a change of it.
 */
public sealed interface ConfigKey permits Setting, StructuredKey {

    /** @return the dotted YAML path, such as {@code server.port} */
    String key();

    /** @return the {@code INSIKA_ROUTER_*} variable that overrides it, if any */
    Optional<String> variable();

    /** @return whether a running router can take a change of it */
    Reload reload();

    /** @return one line for the docs' reference table */
    String doc();

    /** @return the default as the docs' table shows it, in Markdown */
    String defaultText();

    /**
     * The effective value as {@code check} prints it.
     *
     * @param config a loaded configuration
     * @return the text; empty for a key that does not apply (a DNS key in static mode)
     */
    String text(RouterConfig config);

    /**
     * The effective value whole, as text that is equal exactly when the values are: what a
     * running router reports on {@code /observe/config}, so {@code check --against} can compare
     * a file with it key by key. For a scalar, what {@code check} prints.
     *
     * @param config a loaded configuration
     * @return the text; empty for a key that does not apply
     */
    default String canonical(RouterConfig config) {
        return text(config);
    }

    /**
     * Whether two configurations disagree on this key.
     *
     * @param running the configuration in use
     * @param next    another one, such as a reloaded file's
     * @return true when the effective values differ
     */
    boolean differs(RouterConfig running, RouterConfig next);
}
