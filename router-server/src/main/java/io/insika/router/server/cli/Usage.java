package io.insika.router.server.cli;

/** The help text, and the one usage line printed after a command-line mistake. */
final class Usage {

    static final String LINE = "usage: insika-router [demo [--port N] | check [--against URL] | route KEY | token KEY [--hmac [--secret-file FILE]]]"
            + " [--config FILE]"
            + " | --help | --version";

    static final String HELP = """
            insika-router: a session-sticky reverse proxy.

            usage:
              insika-router [--config FILE]         serve: proxy to the configured backends
              insika-router demo [--port N]         three demo backends on loopback, the router in
                                                    front of them on port N (default 9090)
              insika-router check [--config FILE] [--against URL]
                                                    validate the configuration and print every
                                                    value with where it came from; with the admin
                                                    URL of a running router, also say how many
                                                    keys would change owner if it ran this one
              insika-router route KEY [--config FILE]
                                                    print which backend owns the session KEY
              insika-router token KEY [--hmac [--secret-file FILE]]
                                                    print the route token of the actor KEY:
                                                    the hash form, or with --hmac the keyed form
                                                    (secret from FILE, else
                                                    $INSIKA_ROUTER_TOKEN_SECRET); docs/route-tokens.md
              insika-router --help | --version

            The configuration is --config FILE, else $INSIKA_ROUTER_CONFIG, else
            conf/insika-router.yaml of the distribution; every INSIKA_ROUTER_* variable overrides
            its YAML key. Plugin jars are read from the distribution's plugins/ directory.
            SIGTERM or Ctrl-C stops the router gracefully (server.shutdown-grace).
            """;

    private Usage() {
    }
}
