package io.insika.router.server.cli;

import java.nio.file.Path;
import java.util.Optional;
import java.util.OptionalInt;

/**
 * What the command line asked for.
 *
 * @param command the command; {@link Command#SERVE} when none is named
 * @param config  {@code --config FILE}, beating {@code INSIKA_ROUTER_CONFIG}
 * @param key     the session key of {@code route KEY}
 * @param port    {@code --port N} of {@code demo}
 */
public record Invocation(Command command, Optional<Path> config, Optional<String> key, OptionalInt port) {

    /** The commands, by the word that names them. */
    public enum Command {
        SERVE, DEMO, CHECK, ROUTE, HELP, VERSION
    }
}
