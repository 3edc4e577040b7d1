package io.insika.router.server.cli;

import io.insika.router.server.cli.Invocation.Command;

/** The help text, each command's usage ({@code COMMAND --help}), and the one line printed after a mistake. */
final class Usage {

    static final String LINE = "usage: insika-router [COMMAND] [OPTIONS]; insika-router COMMAND --help for one"
            + " command, insika-router --help for all (commands: serve, demo, check, route, token, version, help)";

    static final String HELP = """
            insika-router: a session-sticky reverse proxy.

            usage:
              insika-router [serve] [--config FILE] serve: proxy to the configured backends
              insika-router demo [--port N]         three demo backends on loopback, the router in
                                                    front of them on port N (default 9090)
              insika-router check [--config FILE] [--against URL] [--verbose]
                                                    validate the configuration and print every
                                                    value with where it came from; with the admin
                                                    URL of a running router, also say how many
                                                    keys would change owner if it ran this one
              insika-router route [--config FILE] [--verbose] [--] KEY
                                                    print which backend owns the session KEY
              insika-router token [--hmac [--secret-file FILE]] [--] KEY
                                                    print the route token of the actor KEY:
                                                    the hash form, or with --hmac the keyed form
                                                    (secret from FILE, else
                                                    $INSIKA_ROUTER_TOKEN_SECRET); docs/route-tokens.md
              insika-router version | --version | -V
              insika-router help [COMMAND] | COMMAND --help | --help | -h

            An option's value may follow it (--config FILE) or be joined to it (--config=FILE).
            -- ends the options: what follows is the KEY even if it begins with -.
            The configuration is --config FILE, else $INSIKA_ROUTER_CONFIG, else
            conf/insika-router.yaml of the distribution; every INSIKA_ROUTER_* variable overrides
            its YAML key, and one the router does not know stops it. Plugin jars are read from
            the distribution's plugins/ directory. SIGTERM or Ctrl-C stops the router gracefully
            (server.shutdown-grace); SIGHUP reloads the configuration.
            """;

    private static final String CONFIG = """
              --config FILE, --config=FILE
                                the YAML configuration (default: $INSIKA_ROUTER_CONFIG, else
                                conf/insika-router.yaml of the distribution); every INSIKA_ROUTER_*
                                variable overrides its key
            """;

    private static final String VERBOSE = """
              --verbose, -v     the router's log on standard error too, at logging.level (without
                                it only the answer is printed, and errors; INSIKA_ROUTER_LOG_LEVEL
                                asks for the log as well)
            """;

    private Usage() {
    }

    /** The usage of one command, as {@code insika-router COMMAND --help} prints it. */
    static String of(Command command) {
        return switch (command) {
            case SERVE -> """
                    usage: insika-router [serve] [--config FILE]

                    Proxies to the configured backends until SIGTERM or Ctrl-C, which stop it
                    gracefully (server.shutdown-grace); SIGHUP reloads the configuration, as does
                    reload.watch-interval. The log goes to standard error at logging.level.

                    """ + CONFIG;
            case DEMO -> """
                    usage: insika-router demo [--port N]

                    Starts three demo backends on loopback and the router in front of them, and
                    prints requests to try. Ctrl-C stops it.

                      --port N, --port=N
                                        the router's port (default $INSIKA_ROUTER_PORT, else 9090);
                                        0 picks any free port
                    """;
            case CHECK -> """
                    usage: insika-router check [--config FILE] [--against URL] [--verbose]

                    Validates the configuration exactly as a start would, reporting every problem
                    at once, and prints each effective value with where it came from (default,
                    YAML, environment). Exits 1 if anything is wrong.

                    """ + CONFIG + """
                      --against URL, --against=URL
                                        a running router's admin URL (http://10.0.0.5:9091): also
                                        say how many sample keys would change owner, and what a
                                        reload of this file there would do
                    """ + VERBOSE;
            case ROUTE -> """
                    usage: insika-router route [--config FILE] [--verbose] [--] KEY

                    Prints which backend owns the session KEY, placed by the configured strategy
                    over the configured backends (DNS resolved once), and the ring's fingerprint.
                    A KEY that begins with - goes after --: insika-router route -- -abc

                    """ + CONFIG + VERBOSE;
            case TOKEN -> """
                    usage: insika-router token [--hmac [--secret-file FILE]] [--] KEY

                    Prints the route token of the actor KEY, alone on one line: the hash form, or
                    with --hmac the keyed form (docs/route-tokens.md).

                      --hmac            the keyed form
                      --secret-file FILE, --secret-file=FILE
                                        the HMAC secret (default: $INSIKA_ROUTER_TOKEN_SECRET)
                    """;
            case VERSION -> """
                    usage: insika-router version | --version | -V

                    Prints the router's version.
                    """;
            case HELP -> """
                    usage: insika-router help [COMMAND] | COMMAND --help | --help | -h

                    Prints the help of all commands, or the usage of one.
                    """;
        };
    }
}
