package io.insika.router.api;

/**
 * Makes {@link RouteStrategy route strategies} of one kind; the service a strategy plugin
 * registers.
 *
 * <p>The router finds providers with {@link java.util.ServiceLoader}: a plugin jar lists its
 * implementation in {@code META-INF/services/io.insika.router.api.RouteStrategyProvider}. The
 * operator names the strategy in YAML by {@link #name()}; the router then calls
 * {@link #create(PluginOptions)} once at start-up with the options written under it.
 *
 * <p>Implementations must have a public no-argument constructor and be thread-safe.
 */
public interface RouteStrategyProvider {

    /**
     * The stable, lowercase, dash-separated name operators write in YAML, such as
     * {@code ketama} or {@code round-robin}. It never changes between versions: changing it
     * breaks every configuration that names it. Two providers with the same name stop the
     * router's start.
     *
     * @return the strategy's name
     */
    String name();

    /**
     * Validates the options and makes a strategy from them. Every option is checked here, once,
     * so that a mistake stops the start instead of surfacing on a request; an option the
     * strategy does not know is an error too (use {@link PluginOptions#requireOnly}).
     *
     * @param options the options written under the strategy in YAML; empty when none were
     * @return the strategy
     * @throws PluginConfigException if an option is unknown or its value is invalid
     */
    RouteStrategy create(PluginOptions options);

    /**
     * The options a strategy made from {@code options} places keys with, every default written
     * out: ketama resolves no options and {@code compat: none} alike to {@code compat: none}.
     * The router fingerprints and compares these, never the text as written, so replicas (and a
     * reload) that write a default out and ones that leave it out count as the same placement,
     * while a change of any effective option counts as a change.
     *
     * <p>The router calls it only with options {@link #create} accepted. The result keeps
     * {@code options}' {@link PluginOptions#path() path}; handed to {@code create}, it must make
     * a strategy that places every key as one made from {@code options} does. Options that may
     * place a key differently must resolve differently.
     *
     * <p>The default returns {@code options} unchanged: right for a strategy whose options all
     * have to be written (or that has none); one with defaults should override it.
     *
     * @param options options {@link #create} accepted
     * @return the effective options, defaults included
     */
    default PluginOptions resolve(PluginOptions options) {
        return options;
    }
}
