package io.insika.router.server.cli;

import java.net.URI;
import java.nio.file.Path;
import java.util.Optional;
import java.util.OptionalInt;

/**
 * What the command line asked for.
 *
 * @param command the command; {@link Command#SERVE} when none is named
 * @param config  {@code --config FILE}, beating {@code INSIKA_ROUTER_CONFIG}
 * @param key     the session key of {@code route KEY}, or the actor key of {@code token KEY}
 * @param port    {@code --port N} of {@code demo}
 * @param hmac    {@code token --hmac}: the keyed form
 * @param secret  {@code token --secret-file FILE}: where the HMAC secret is
 */
public record Invocation(Command command, Optional<Path> config, Optional<String> key, OptionalInt port,
                         boolean hmac, Optional<Path> secret, Optional<URI> against) {

    /** The commands, by the word that names them. */
    public enum Command {
        SERVE, DEMO, CHECK, ROUTE, TOKEN, HELP, VERSION
    }
}
