package io.insika.router.server;

import java.lang.System.Logger.Level;
import java.util.EnumMap;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.atomic.LongAdder;
import java.util.function.LongSupplier;
import java.util.function.Supplier;

import io.insika.router.server.config.ConfigChanges;
import io.insika.router.server.config.ConfigException;
import io.insika.router.server.config.RouterConfig;
import io.insika.router.server.routing.PluginFailedException;

/**
 * Reads the configuration again and applies it to the running router, whole or not at all: a
 * file that fails validation, changes a key fixed at start, or changes the strategy without
 * saying it may is refused, every reason logged, and the running configuration kept. Requests
 * and tunnels in flight finish with the configuration they began with.
 *
 * <p>Reloads run one at a time: a signal arriving during one waits for it.
 */
public final class ConfigReload {

    private static final System.Logger LOG = System.getLogger(ConfigReload.class.getName());

    /** How one reload ended: the label of its {@code insika_router_config_reloads_total} series. */
    public enum Result {
        /** The new configuration runs. */
        APPLIED("applied"),
        /** The file says what the router already runs with. */
        UNCHANGED("unchanged"),
        /** The file cannot be read or fails validation. */
        INVALID("invalid"),
        /** Valid, but it changes what only a restart can (or the strategy, without leave). */
        REFUSED("refused");

        private final String label;

        Result(String label) {
            this.label = label;
        }

        public String label() {
            return label;
        }
    }

    private final Router router;
    private final Supplier<RouterConfig> loader;
    private final Map<Result, LongAdder> counts = new EnumMap<>(Result.class);
    private volatile boolean lastSucceeded = true;

    /**
     * @param router the running router
     * @param loader reads and validates the configuration as at start (the same file and
     *               environment); throws {@link ConfigException} listing every problem
     */
    public ConfigReload(Router router, Supplier<RouterConfig> loader) {
        this.router = router;
        this.loader = loader;
        Map<String, LongSupplier> series = new LinkedHashMap<>();
        for (Result result : Result.values()) {
            LongAdder count = new LongAdder();
            counts.put(result, count);
            series.put(result.label(), count::sum);
        }
        router.metrics().counter("config_reloads", "Configuration reloads (SIGHUP), by how they ended", "result",
                series);
        router.metrics().gauge("config_last_reload_successful",
                "1 if the last reload was applied or had nothing to apply (or none was asked), 0 if it was refused",
                () -> lastSucceeded ? 1 : 0);
    }

    /** Reloads now, logging what happened. Never throws for a bad file. */
    public synchronized Result reload() {
        Result result = attempt();
        counts.get(result).increment();
        lastSucceeded = result == Result.APPLIED || result == Result.UNCHANGED;
        return result;
    }

    private Result attempt() {
        RouterConfig next;
        try {
            next = loader.get();
        } catch (ConfigException e) {
            LOG.log(Level.WARNING, "reload refused, keeping the running configuration: the file has {0} problem(s)",
                    e.problems().size());
            e.problems().forEach(problem -> LOG.log(Level.WARNING, "reload: {0}", problem));
            return Result.INVALID;
        }
        RouterConfig running = router.config();
        ConfigChanges change = ConfigChanges.between(running, next);
        if (!change.restartOnly().isEmpty()) {
            LOG.log(Level.WARNING, "reload refused, keeping the running configuration: only a restart changes {0}",
                    ConfigChanges.describe(change.restartOnly(), running, next));
            return Result.REFUSED;
        }
        if (!change.reloadable()) {
            LOG.log(Level.WARNING, "reload refused, keeping the running configuration: the strategy would change ({0}),"
                    + " which moves most sessions to other backends; set strategy.allow-change-on-reload: true in the"
                    + " file to apply it on reload, or restart", ConfigChanges.describe(change.needRestart(), running,
                    next));
            return Result.REFUSED;
        }
        if (change.isEmpty()) {
            LOG.log(Level.INFO, "reload: nothing changed");
            return Result.UNCHANGED;
        }
        try {
            router.reconfigure(next, change);
        } catch (PluginFailedException e) {
            LOG.log(Level.WARNING, "reload refused, keeping the running configuration: " + e.getMessage(), e.getCause());
            return Result.REFUSED;
        }
        LOG.log(Level.INFO, "reload applied: {0}; requests in flight finish with the configuration they began with",
                change.names());
        return Result.APPLIED;
    }
}
