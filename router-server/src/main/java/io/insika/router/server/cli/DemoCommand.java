package io.insika.router.server.cli;

import java.io.PrintStream;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.stream.Collectors;

import io.insika.router.server.Router;
import io.insika.router.server.config.ConfigKey;
import io.insika.router.server.config.RouterConfig;
import io.insika.router.server.config.RouterConfigLoader;
import io.insika.router.server.config.Settings;
import io.insika.router.server.config.StaticBackends;
import io.insika.router.server.demo.DemoBackend;
import io.insika.router.server.plugin.PluginRegistry;
import io.insika.router.server.routing.BackendPool;

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
            config.logFormat().applyToRouterLog();
            config.logLevel().applyToRouterLog();
            try (Router router = Router.start(config, plugins)) {
                printTryLines(backends, router, sessionOf(config, plugins, backends.get(1)));
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
        demo.put(variable(Settings.BACKENDS_STATIC),
                backends.stream().map(b -> b.uri().toString()).collect(Collectors.joining(",")));
        demo.put(variable(Settings.HOST), "127.0.0.1");
        // active checks every second, so a stopped demo backend is seen back within one
        demo.put(variable(Settings.HEALTH_PATH), "/healthz");
        demo.put(variable(Settings.HEALTH_INTERVAL), "1s");
        demo.put(variable(Settings.PORT), String.valueOf(port));
        for (ConfigKey passed : List.of(Settings.STRATEGY, Settings.LOG_FORMAT, Settings.LOG_LEVEL)) {
            Optional.ofNullable(environment.get(variable(passed))).ifPresent(value -> demo.put(variable(passed), value));
        }
        RouterConfig c = new RouterConfigLoader(plugins).load(Optional.empty(), demo);
        return new RouterConfig(c.server().withAdminPort(0), c.strategy(), c.backends(), c.proxy(), c.routes(),
                c.logFormat(), c.logLevel(), c.reloadWatchInterval(), c.origins());
    }

    private static String variable(ConfigKey key) {
        return key.variable().orElseThrow();
    }

    private static int port(Map<String, String> environment) {
        String value = environment.get(variable(Settings.PORT));
        if (value == null) {
            return Settings.PORT.fallback();
        }
        try {
            return Integer.parseInt(value.trim());
        } catch (NumberFormatException e) {
            throw new StartupException(variable(Settings.PORT) + ": [" + value + "] (expected: a port, 0 to 65535)");
        }
    }

    // A user the router places on this backend: the same pool, so the same answer.
    private static String sessionOf(RouterConfig config, PluginRegistry plugins, DemoBackend backend) {
        BackendPool pool = Router.newPool(config, plugins);
        pool.update(((StaticBackends) config.backends()).backends());
        List<String> names = List.of("alice", "bob", "carol", "dave", "erin", "frank", "grace", "heidi");
        for (int i = 0; ; i++) {
            String user = i < names.size() ? names.get(i) : "user-" + i;
            if (pool.snapshot().owner(user).map(owner -> owner.uri().equals(backend.uri())).orElse(false)) {
                return user;
            }
        }
    }

    private void printTryLines(List<DemoBackend> backends, Router router, String stoppedSession) {
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
        DemoBackend stopped = backends.get(1);
        out.println("A backend that goes down moves no session. Stop " + stopped.name() + " for "
                + DemoBackend.STOPPED_FOR.toSeconds() + " s, as a crash and restart would:");
        out.println("  curl -s -X POST " + stopped.uri() + "/demo/stop");
        out.println("Meanwhile requests without a key keep succeeding on the others, and " + stoppedSession
                + ", whose session lives on " + stopped.name() + ", gets the retry envelope (503, Retry-After: 1)");
        out.println("until it is back, then resumes there:");
        out.println("  curl -s -X POST " + base + "/v1/responses -H 'Content-Type: application/json'"
                + " -d '{\"user\":\"" + stoppedSession + "\",\"input\":\"hello\"}'");
        out.println("Each backend as the router sees it: curl -s http://127.0.0.1:" + router.adminPort()
                + "/observe/backends");
        out.println();
        out.println("Health (admin port): curl -s http://127.0.0.1:" + router.adminPort() + "/observe/health");
        out.println("Metrics (admin port): curl -s http://127.0.0.1:" + router.adminPort() + "/observe/metrics"
                + " | grep ^insika_router");
        out.println("Ctrl-C stops the demo.");
        out.flush();
    }
}
