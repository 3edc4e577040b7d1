package io.insika.router.server.interop;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.stream.Collectors;

import io.insika.router.server.Router;
import io.insika.router.server.config.RouterConfigLoader;
import io.insika.router.server.plugin.PluginRegistry;
import io.insika.router.server.testing.FixturePlugins;
import io.insika.router.server.testing.PeerProgram;

/**
 * A router started as {@code bin/insika-router} starts one: a YAML file, the loader, then
 * {@link Router#start}. It frames HTTP/1 on the lean path, the default; the interop tests run
 * once, not on both paths as the proxy tests do.
 */
final class YamlRouter {

    private YamlRouter() {
    }

    /**
     * @param dir      where its configuration file goes
     * @param backends its static backends
     * @param more     YAML keys beside {@code server} and {@code backends}, such as a {@code proxy} section
     */
    static Router start(Path dir, List<PeerProgram.Server> backends, String more) {
        String yaml = """
                server: { host: 127.0.0.1, port: 0, admin-port: 0, shutdown-grace: 0s, lean-http1: true }
                backends:
                  static: [%s]
                %s
                """.formatted(backends.stream().map(PeerProgram.Server::url).collect(Collectors.joining(", ")), more);
        try {
            Path file = Files.writeString(Files.createTempFile(dir, "insika-router", ".yaml"), yaml);
            PluginRegistry registry = FixturePlugins.builtIn();
            return Router.start(new RouterConfigLoader(registry).load(Optional.of(file), Map.of()), registry);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
