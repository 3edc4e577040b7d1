package io.insika.router.server.cli;

import java.io.PrintStream;
import java.net.URI;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;

import io.helidon.json.JsonObject;
import io.helidon.json.JsonParser;
import io.insika.router.api.Backend;
import io.insika.router.api.Picker;
import io.insika.router.server.Router;
import io.insika.router.server.config.ConfigKey;
import io.insika.router.server.config.Reload;
import io.insika.router.server.config.RouterConfig;
import io.insika.router.server.config.RouterConfigLoader;
import io.insika.router.server.config.Setting;
import io.insika.router.server.config.Settings;
import io.insika.router.server.config.ValueSource;
import io.insika.router.server.discovery.BackendDiscovery;
import io.insika.router.server.plugin.PluginRegistry;
import io.insika.router.server.routing.BackendPool;
import io.insika.router.server.routing.RoutingSnapshot;

/**
 * {@code insika-router check}: validates the configuration exactly as a start would, and prints
 * each effective value with where it came from, so an operator sees what the environment beat.
 */
final class CheckCommand {

    private final PrintStream out;
    private final boolean logging;

    /**
     * @param out     where the report goes
     * @param logging whether the router's log is written at {@code logging.level} once the
     *                configuration is read, or left as it is
     */
    CheckCommand(PrintStream out, boolean logging) {
        this.out = out;
        this.logging = logging;
    }

    /** Sample keys placed both ways by {@code --against}: the share that moves, within about a point. */
    static final int SAMPLE_KEYS = 10_000;

    int run(PluginRegistry plugins, Map<String, String> environment, Optional<Path> configFile, Optional<URI> against) {
        RouterConfig config = new RouterConfigLoader(plugins).load(configFile, environment);
        if (logging) {
            config.logLevel().applyToRouterLog();
        }
        out.println("configuration: " + config.origins().file().orElse("the embedded defaults"));
        int width = config.origins().sources().keySet().stream().mapToInt(String::length).max().orElse(0);
        String line = "  %-" + width + "s  %-40s (%s)%n";
        config.origins().sources().forEach((key, source) ->
                out.printf(line, key, Settings.byKey(key).orElseThrow().text(config), label(source)));
        config.routes().forEach(route -> out.println("    route " + Router.describe(route)));
        if (plugins.plugins().isEmpty()) {
            out.println("plugins: none");
        }
        plugins.plugins().forEach(plugin -> out.println("plugin " + plugin));
        out.println("the configuration is valid");
        against.ifPresent(admin -> {
            compare(plugins, config, RunningPlacement.fetch(admin), admin);
            compareKeys(config, admin);
        });
        return CommandLine.OK;
    }

    // Compares every key with the running router's /observe/config, and says what a reload
    // (SIGHUP) of this file there would do, as ConfigReload decides it.
    private void compareKeys(RouterConfig config, URI admin) {
        URI endpoint = admin.resolve("/observe/config");
        Optional<String> body = AdminJson.get(endpoint);
        if (body.isEmpty()) {
            out.println("the running router does not report its configuration (" + endpoint + " answered 404)");
            return;
        }
        JsonObject running;
        try {
            running = JsonParser.create(body.get()).readJsonObject().objectValue("keys").orElseThrow();
        } catch (RuntimeException e) {
            throw new StartupException(endpoint + " did not answer as a router of this version does (" + e + ")");
        }
        List<String> differ = new ArrayList<>();
        List<String> restart = new ArrayList<>();
        boolean strategy = false;
        for (ConfigKey key : Settings.all()) {
            String now = running.stringValue(key.key(), "");
            String file = key.canonical(config);
            if (now.equals(file)) {
                continue;
            }
            String change = key instanceof Setting<?> && now.length() + file.length() <= 80
                    ? key.key() + " (" + now + " -> " + file + ")" : key.key();
            differ.add(change);
            switch (key.reload()) {
                case RESTART -> restart.add(change);
                case WHILE_ON -> {
                    if (!Reload.sameSide(now, file)) {
                        restart.add(change);
                    }
                }
                case OPT_IN -> strategy = true;
                case LIVE -> { }
            }
        }
        if (differ.isEmpty()) {
            out.println("same configuration as the running router: a reload would change nothing");
            return;
        }
        out.println("differs from the running router: " + String.join(", ", differ));
        if (!restart.isEmpty()) {
            out.println("a reload would be refused: only a restart changes " + String.join(", ", restart));
        } else if (strategy && !config.strategy().allowChangeOnReload()) {
            out.println("a reload would be refused: the strategy changes, which moves most sessions; set"
                    + " strategy.allow-change-on-reload: true to apply it on reload, or restart");
        } else {
            out.println("a reload (SIGHUP) would apply it");
        }
    }

    // Places the same sample keys with the running router's strategy over its backends, and with
    // this file's over the backends it names (DNS resolved once), and counts the keys that move.
    private void compare(PluginRegistry plugins, RouterConfig config, RunningPlacement running, URI admin) {
        Picker before = plugins.strategy(running.strategy())
                .orElseThrow(() -> new StartupException("the router at " + admin + " uses strategy "
                        + running.strategy() + ", which is not installed here"))
                .create(running.options()).picker(running.backends());
        BackendPool pool = Router.newPool(config, plugins);
        BackendDiscovery.start(config.backends(), pool).close();
        RoutingSnapshot after = pool.snapshot();
        out.println("running router at " + admin + ": ring " + running.fingerprint() + " (" + running.strategy()
                + ", " + running.backends().size() + " backends)");
        out.println("this configuration: ring " + after.fingerprint() + " (" + config.strategy().name() + ", "
                + after.backends().size() + " backends)");
        if (after.fingerprint().equals(running.fingerprint())) {
            out.println("same placement: every key stays with its owner");
            return;
        }
        int moved = 0;
        for (int i = 0; i < SAMPLE_KEYS; i++) {
            String key = "check-sample-" + i;
            if (!before.pick(key).map(Backend::id).equals(after.owner(key).map(Backend::id))) {
                moved++;
            }
        }
        out.printf("placement differs: %d of %d sample keys (%.1f%%) would change owner%n", moved, SAMPLE_KEYS,
                100.0 * moved / SAMPLE_KEYS);
    }

    private static String label(ValueSource source) {
        return switch (source) {
            case DEFAULT -> "default";
            case YAML -> "YAML";
            case ENVIRONMENT -> "environment";
        };
    }
}
