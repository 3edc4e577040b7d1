package io.insika.router.server.cli;

import java.io.PrintStream;
import java.io.UncheckedIOException;
import java.util.List;
import java.util.Map;

import io.insika.router.api.PluginConfigException;
import io.insika.router.server.Version;
import io.insika.router.server.config.ConfigException;
import io.insika.router.server.config.EnvironmentOverrides;
import io.insika.router.server.config.Settings;
import io.insika.router.server.logging.LogLevel;
import io.insika.router.server.plugin.PluginException;

/**
 * Runs one command and turns every problem a user can cause into one line on stderr and an exit
 * status: 0 done, 1 could not do it, 2 the command line itself was wrong.
 */
public final class CommandLine {

    public static final int OK = 0;
    public static final int FAILED = 1;
    public static final int USAGE = 2;

    private final Map<String, String> environment;
    private final RouterHome home;
    private final PrintStream out;
    private final PrintStream err;

    private CommandLine(Map<String, String> environment, RouterHome home, PrintStream out, PrintStream err) {
        this.environment = environment;
        this.home = home;
        this.out = out;
        this.err = err;
    }

    /**
     * Runs the command line of this process; {@code serve} and {@code demo} return only once
     * stopped by a signal.
     *
     * @param args the arguments after the program name
     * @return the exit status
     */
    public static int run(List<String> args) {
        return new CommandLine(System.getenv(), RouterHome.fromSystemProperty(), System.out, System.err).execute(args);
    }

    private int execute(List<String> args) {
        try {
            Invocation invocation = Arguments.parse(args);
            return switch (invocation.command()) {
                case HELP -> print(invocation.topic().map(Usage::of).orElse(Usage.HELP));
                case VERSION -> print("insika-router " + Version.current());
                case CHECK -> new CheckCommand(out, quietUnlessAsked(invocation)).run(home.plugins(),
                        home.environment(environment), invocation.config(), invocation.against());
                case ROUTE -> new RouteCommand(out, quietUnlessAsked(invocation)).run(home.plugins(),
                        home.environment(environment), invocation.config(), invocation.key().orElseThrow());
                case TOKEN -> new TokenCommand(out).run(invocation.key().orElseThrow(), invocation.hmac(),
                        invocation.secret(), environment);
                case SERVE -> ServeCommand.run(home.plugins(), home.environment(environment), invocation.config());
                case DEMO -> new DemoCommand(out).run(home.plugins(), environment, invocation.port());
            };
        } catch (UsageException e) {
            err.println("insika-router: " + e.getMessage());
            err.println(Usage.LINE);
            return USAGE;
        } catch (ConfigException e) {
            e.problems().forEach(problem -> err.println("insika-router: " + problem));
            return FAILED;
        } catch (PluginException | PluginConfigException | StartupException e) {
            err.println("insika-router: " + e.getMessage());
            return FAILED;
        } catch (UncheckedIOException e) {
            err.println("insika-router: " + e.getCause().getMessage());
            return FAILED;
        }
    }

    /**
     * {@code route} and {@code check} answer on standard output; their log (plugins loaded, the
     * backends found) is noise there unless asked for with {@code --verbose} or
     * {@code INSIKA_ROUTER_LOG_LEVEL}. Until then only errors are logged; from the plugins on.
     *
     * @return whether the configured level applies once the configuration is read
     */
    private boolean quietUnlessAsked(Invocation invocation) {
        boolean asked = invocation.verbose()
                || EnvironmentOverrides.of(environment).isSet(Settings.LOG_LEVEL.variable().orElseThrow());
        if (!asked) {
            LogLevel.ERROR.applyToRouterLog();
        }
        return asked;
    }

    private int print(String text) {
        out.println(text.strip());
        return OK;
    }
}
