package io.insika.router.server.cli;

import java.io.PrintStream;
import java.nio.file.Path;
import java.util.Map;
import java.util.Optional;

import io.insika.router.api.Backend;
import io.insika.router.server.Router;
import io.insika.router.server.config.RouterConfig;
import io.insika.router.server.config.RouterConfigLoader;
import io.insika.router.server.discovery.BackendDiscovery;
import io.insika.router.server.plugin.PluginRegistry;
import io.insika.router.server.routing.BackendPool;

/**
 * {@code insika-router route KEY}: which backend owns a session, answered by the same strategy
 * and backend set a running router would use (DNS resolved once).
 */
final class RouteCommand {

    private final PrintStream out;
    private final boolean logging;

    /**
     * @param out     where the answer goes
     * @param logging whether the router's log is written at {@code logging.level} once the
     *                configuration is read, or left as it is
     */
    RouteCommand(PrintStream out, boolean logging) {
        this.out = out;
        this.logging = logging;
    }

    int run(PluginRegistry plugins, Map<String, String> environment, Optional<Path> configFile, String key) {
        RouterConfig config = new RouterConfigLoader(plugins).load(configFile, environment);
        if (logging) {
            config.logLevel().applyToRouterLog();
        }
        BackendPool pool = Router.newPool(config, plugins);
        // starting discovery fills the pool at once (one DNS resolution); closing stops the schedule
        BackendDiscovery.start(config.backends(), pool).close();
        if (pool.snapshot().isEmpty()) {
            throw new StartupException("no backends: the configuration names none, or DNS returned none");
        }
        Backend owner = pool.snapshot().owner(key).orElseThrow();
        // the fingerprint lets an operator see this is the ring the running routers export
        out.println(key + " -> " + owner.uri() + " (ring " + pool.snapshot().fingerprint() + ")");
        return CommandLine.OK;
    }
}
