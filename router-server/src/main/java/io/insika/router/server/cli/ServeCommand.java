package io.insika.router.server.cli;

import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

import io.insika.router.server.ConfigReload;
import io.insika.router.server.Router;
import io.insika.router.server.config.RouterConfig;
import io.insika.router.server.config.RouterConfigLoader;
import io.insika.router.server.plugin.PluginRegistry;

/** {@code insika-router}: serves until SIGTERM, then stops gracefully; SIGHUP reloads the configuration. */
final class ServeCommand {

    private static final System.Logger LOG = System.getLogger(Router.class.getName());

    private ServeCommand() {
    }

    static int run(PluginRegistry plugins, Map<String, String> environment, Optional<Path> configFile) {
        RegistryWarmUp registry = RegistryWarmUp.start();
        RouterConfigLoader loader = new RouterConfigLoader(plugins);
        RouterConfig config = loader.load(configFile, environment);
        config.logFormat().applyToRouterLog();
        config.logLevel().applyToRouterLog();
        StopSignal stop = StopSignal.install();
        ReloadSignal hup = ReloadSignal.install(config.reloadWatchInterval());
        FreePort.requireBoth(config.server());
        AotCache.describe().ifPresent(line -> LOG.log(System.Logger.Level.INFO, line));
        Router router = Router.start(config, plugins, registry::awaitDone);
        stop.onRepeat(router::hurry);
        ConfigReload reload = new ConfigReload(router, () -> loader.load(configFile, environment));
        hup.reloadWith(reload::reload);
        // the embedded default never changes: without a file, only TLS files (named by variables) are watched
        Map<Path, String> watched = new LinkedHashMap<>();
        config.origins().file().ifPresent(file -> watched.put(Path.of(file), config.origins().sha256().orElseThrow()));
        config.server().tls().ifPresent(tls -> watched.putAll(tls.material().digests()));
        ConfigWatch watch = config.reloadWatchInterval().isPositive() && !watched.isEmpty()
                ? ConfigWatch.start(List.copyOf(watched.keySet()), config.reloadWatchInterval(),
                        List.copyOf(watched.values()), hup::ask)
                : null;
        try {
            stop.await();
        } finally {
            if (watch != null) {
                watch.close();
            }
            hup.stop();
            router.close();
        }
        return CommandLine.OK;
    }
}
