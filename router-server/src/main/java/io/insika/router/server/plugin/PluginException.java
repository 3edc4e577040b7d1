package io.insika.router.server.plugin;

/**
 * The plugins cannot be loaded; the router does not start. The message is one line naming the
 * jar(s) at fault and what is wrong with them.
 */
public final class PluginException extends RuntimeException {

    private static final long serialVersionUID = 1L;

    public PluginException(String message) {
        super(message);
    }
}
