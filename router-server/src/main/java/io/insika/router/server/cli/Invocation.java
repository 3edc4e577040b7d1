package io.insika.router.server.cli;

import java.net.URI;
import java.nio.file.Path;
import java.util.Optional;
import java.util.OptionalInt;

/**
 * What the command line asked for.
 *
 * @param command the command; {@link Command#SERVE} when none is named
 * @param topic   for {@link Command#HELP}: the command whose usage to print ({@code route --help},
 *                {@code help route}); empty for the whole help
 * @param config  {@code --config FILE}, beating {@code INSIKA_ROUTER_CONFIG}
 * @param key     the session key of {@code route KEY}, or the actor key of {@code token KEY}
 * @param port    {@code --port N} of {@code demo}
 * @param hmac    {@code token --hmac}: the keyed form
 * @param secret  {@code token --secret-file FILE}: where the HMAC secret is
 * @param against {@code check --against URL}: a running router's admin URL
 * @param verbose {@code route --verbose}, {@code check --verbose}: their log on standard error
 */
public record Invocation(Command command, Optional<Command> topic, Optional<Path> config, Optional<String> key,
                         OptionalInt port, boolean hmac, Optional<Path> secret, Optional<URI> against,
                         boolean verbose) {

    /** The commands, by the word that names them. */
    public enum Command {
        SERVE, DEMO, CHECK, ROUTE, TOKEN, HELP, VERSION
    }

    static Invocation help(Optional<Command> topic) {
        return new Invocation(Command.HELP, topic, Optional.empty(), Optional.empty(), OptionalInt.empty(), false,
                Optional.empty(), Optional.empty(), false);
    }

    static Invocation version() {
        return new Invocation(Command.VERSION, Optional.empty(), Optional.empty(), Optional.empty(),
                OptionalInt.empty(), false, Optional.empty(), Optional.empty(), false);
    }
}
