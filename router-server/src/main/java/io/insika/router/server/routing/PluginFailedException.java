package io.insika.router.server.routing;

/**
 * A plugin's method threw, against its contract ({@code Picker.pick}, {@code KeyExtractor.extract}
 * and {@code RouteStrategy.picker} never throw): which plugin, doing what, and what it threw.
 * The router contains it where it happened: the request gets the plugin-failure envelope, the
 * pool keeps its last snapshot, the admin endpoints report it.
 */
public final class PluginFailedException extends RuntimeException {

    private static final long serialVersionUID = 1L;

    private final String plugin;
    private final String doing;

    /**
     * @param role   {@code strategy} or {@code key extractor}
     * @param plugin its configured name or type, such as {@code ketama} or {@code json-field}
     * @param doing  what the router asked of it, such as {@code picking a key's owner}
     * @param cause  what it threw
     */
    public PluginFailedException(String role, String plugin, String doing, Throwable cause) {
        super(role + " " + plugin + " threw " + doing + ": " + cause, cause);
        this.plugin = plugin;
        this.doing = role + " " + plugin + " " + doing;
    }

    /** The plugin's configured name or type: the {@code plugin} label of its metric. */
    public String plugin() {
        return plugin;
    }

    /** The plugin and what it was asked, such as {@code strategy x picking a key's owner}: one per log window. */
    public String what() {
        return doing;
    }
}
