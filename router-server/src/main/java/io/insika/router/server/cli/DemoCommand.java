package io.insika.router.server.cli;

import java.io.PrintStream;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.stream.Collectors;

import io.insika.router.server.Router;
import io.insika.router.server.config.EnvironmentOverrides;
import io.insika.router.server.config.RouterConfig;
import io.insika.router.server.config.RouterConfigLoader;
import io.insika.router.server.demo.DemoBackend;
import io.insika.router.server.plugin.PluginRegistry;

/**
 * {@code insika-router demo}: three demo backends on loopback, the router with the default
 * routes in front of them, and curl lines to try. Needs nothing but a free port.
 */
final class DemoCommand {

    private static final int DEMO_BACKENDS = 3;

    private final PrintStream out;

    DemoCommand(PrintStream out) {
        this.out = out;
    }

    int run(PluginRegistry plugins, Map<String, String> environment, OptionalInt portOption) {
        int port = portOption.orElseGet(() -> port(environment));
        if (port != 0) {
            try {
                FreePort.require("127.0.0.1", port, "demo");
            } catch (StartupException e) {
                throw new StartupException("port " + port + " is already in use: try `insika-router demo --port "
                        + (port + 100) + "` (or --port 0 for any free port)");
            }
        }
        StopSignal stop = StopSignal.install();
        List<DemoBackend> backends = new ArrayList<>();
        try {
            for (int i = 1; i <= DEMO_BACKENDS; i++) {
                backends.add(DemoBackend.start("demo-" + i));
            }
            RouterConfig config = config(plugins, environment, backends, port);
            try (Router router = Router.start(config, plugins)) {
                printTryLines(backends, router);
                stop.await();
            }
        } finally {
            backends.forEach(DemoBackend::close);
        }
        return CommandLine.OK;
    }

    /** The embedded defaults (the seed's routes), the demo backends, loopback only; admin on any free port. */
    private static RouterConfig config(PluginRegistry plugins, Map<String, String> environment,
                                       List<DemoBackend> backends, int port) {
        Map<String, String> demo = new java.util.HashMap<>();
        demo.put(EnvironmentOverrides.BACKENDS,
                backends.stream().map(b -> b.uri().toString()).collect(Collectors.joining(",")));
        demo.put(EnvironmentOverrides.HOST, "127.0.0.1");
        demo.put(EnvironmentOverrides.PORT, String.valueOf(port));
        Optional.ofNullable(environment.get(EnvironmentOverrides.STRATEGY))
                .ifPresent(strategy -> demo.put(EnvironmentOverrides.STRATEGY, strategy));
        RouterConfig c = new RouterConfigLoader(plugins).load(Optional.empty(), demo);
        return new RouterConfig(c.host(), c.port(), 0, c.shutdownGrace(), c.stopDelay(), c.maxConnections(), c.strategy(),
                c.strategyOptions(), c.backends(), c.capacity(), c.health(), c.bodyMaxBytes(), c.backendTimeout(), c.clientBodyTimeout(),
                c.clientSendTimeout(), c.trustedProxies(), c.maxRequests(), c.peekBudget(), c.accessLog(), c.routes(),
                c.origins());
    }

    private static int port(Map<String, String> environment) {
        String value = environment.get(EnvironmentOverrides.PORT);
        if (value == null) {
            return RouterConfig.DEFAULT_PORT;
        }
        try {
            return Integer.parseInt(value.trim());
        } catch (NumberFormatException e) {
            throw new StartupException(EnvironmentOverrides.PORT + ": [" + value + "] (expected: a port, 0 to 65535)");
        }
    }

    private void printTryLines(List<DemoBackend> backends, Router router) {
        String base = "http://127.0.0.1:" + router.port();
        out.println();
        out.println("insika-router demo: " + backends.size() + " backends ("
                + backends.stream().map(b -> b.name() + " " + b.uri()).collect(Collectors.joining(", "))
                + ") behind " + base);
        out.println();
        out.println("The same user always reaches the same backend (try a few names):");
        for (String user : List.of("alice", "alice", "alice", "bob", "carol")) {
            out.println("  curl -s -X POST " + base + "/v1/responses -H 'Content-Type: application/json'"
                    + " -d '{\"user\":\"" + user + "\",\"input\":\"hello\"}'");
        }
        out.println();
        out.println("Requests without a session key go round-robin:");
        out.println("  curl -s " + base + "/studio/anything");
        out.println();
        out.println("Health (admin port): curl -s http://127.0.0.1:" + router.adminPort() + "/observe/health");
        out.println("Metrics (admin port): curl -s http://127.0.0.1:" + router.adminPort() + "/observe/metrics"
                + " | grep ^insika_router");
        out.println("Ctrl-C stops the demo.");
        out.flush();
    }
}
