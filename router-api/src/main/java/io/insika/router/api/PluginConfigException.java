package io.insika.router.api;

/**
 * A plugin's options are invalid. The router prints the message, one line, and does not start.
 *
 * <p>The message names the option's full path, the value given and what would be valid, in
 * the form {@code routes[2].key.field: [] (expected: a non-empty field name)}; build it with
 * {@link PluginOptions#invalid(String, Object, String)} so every plugin reads alike.
 */
public class PluginConfigException extends IllegalArgumentException {

    private static final long serialVersionUID = 1L;

    /**
     * An exception with a message already in the house form.
     *
     * @param message {@code path: [value] (expected: what is valid)}
     */
    public PluginConfigException(String message) {
        super(message);
    }
}
