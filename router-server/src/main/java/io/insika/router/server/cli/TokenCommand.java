package io.insika.router.server.cli;

import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.Map;
import java.util.Optional;

import io.insika.router.server.config.EnvironmentOverrides;
import io.insika.router.server.secret.SecretFile;
import io.insika.router.server.token.RouteToken;

/**
 * {@code insika-router token KEY}: prints the route token of an actor key, alone on one line, so
 * that scripts and tests can use it. The router itself never needs the secret.
 */
final class TokenCommand {

    /** Where an HMAC secret is read from when no {@code --secret-file} is given. */
    static final String SECRET_VARIABLE = EnvironmentOverrides.TOKEN_SECRET;

    private final PrintStream out;

    TokenCommand(PrintStream out) {
        this.out = out;
    }

    int run(String key, boolean hmac, Optional<Path> secretFile, Map<String, String> environment) {
        try {
            out.println(hmac ? RouteToken.hmac(secret(secretFile, environment), key) : RouteToken.hash(key));
        } catch (IllegalArgumentException e) {
            throw new StartupException(e.getMessage());
        }
        return CommandLine.OK;
    }

    // The file's bytes, less one trailing line end (echo and editors add one); else the variable's UTF-8.
    private static byte[] secret(Optional<Path> file, Map<String, String> environment) {
        if (file.isPresent()) {
            try {
                return SecretFile.read(file.get());
            } catch (IOException e) {
                throw new StartupException("--secret-file: [" + file.get() + "] (expected: a readable file)");
            }
        }
        String value = environment.get(SECRET_VARIABLE);
        if (value == null || value.isEmpty()) {
            throw new StartupException("--hmac needs a secret: --secret-file FILE, or " + SECRET_VARIABLE);
        }
        return value.getBytes(StandardCharsets.UTF_8);
    }
}
