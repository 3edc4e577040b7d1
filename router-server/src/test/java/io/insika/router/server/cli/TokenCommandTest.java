package io.insika.router.server.cli;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

/** {@code insika-router token KEY}: the documented vectors, on the command line. */
class TokenCommandTest {

    // docs/route-token-vectors.json: "alice" under the secret "insika-route-token-test-secret"
    private static final String HASH = "h1K9gGyX8OAK8aH8Myj6djqQ";
    private static final String HMAC = "k1BSvfirtnabj67axRTxVh7w";
    private static final String SECRET = "insika-route-token-test-secret";

    @TempDir
    Path dir;

    @Test
    void itPrintsTheHashTokenAloneOnOneLine() {
        assertEquals(HASH + System.lineSeparator(), token(List.of("token", "alice"), Map.of()));
    }

    @Test
    void withHmacTheSecretComesFromTheFileLessItsLineEndElseFromTheEnvironment() throws Exception {
        Path file = Files.writeString(dir.resolve("secret"), SECRET + "\r\n");
        assertEquals(HMAC, token(List.of("token", "--hmac", "--secret-file", file.toString(), "alice"), Map.of()).strip());
        assertEquals(HMAC, token(List.of("token", "alice", "--hmac"),
                Map.of(TokenCommand.SECRET_VARIABLE, SECRET)).strip());
    }

    @Test
    void hmacWithoutASecretOrWithAShortOneSaysWhatIsMissing() throws Exception {
        assertEquals("--hmac needs a secret: --secret-file FILE, or INSIKA_ROUTER_TOKEN_SECRET",
                assertThrows(StartupException.class, () -> token(List.of("token", "--hmac", "alice"), Map.of()))
                        .getMessage());
        Path shortSecret = Files.writeString(dir.resolve("short"), "tiny\n");
        assertEquals("secret: 4 bytes (expected: at least 16)", assertThrows(StartupException.class,
                () -> token(List.of("token", "--hmac", "--secret-file", shortSecret.toString(), "alice"), Map.of()))
                .getMessage());
    }

    @Test
    void theCommandLineOfTokenIsChecked() {
        assertEquals("token needs the actor KEY to make a token for",
                assertThrows(UsageException.class, () -> Arguments.parse(List.of("token"))).getMessage());
        assertEquals("--secret-file is the secret of --hmac tokens: add --hmac", assertThrows(UsageException.class,
                () -> Arguments.parse(List.of("token", "--secret-file", "s", "alice"))).getMessage());
        assertEquals("--hmac and --secret-file are options of token",
                assertThrows(UsageException.class, () -> Arguments.parse(List.of("route", "alice", "--hmac")))
                        .getMessage());
    }

    private static String token(List<String> args, Map<String, String> environment) {
        Invocation invocation = Arguments.parse(args);
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        new TokenCommand(new PrintStream(out, true, StandardCharsets.UTF_8))
                .run(invocation.key().orElseThrow(), invocation.hmac(), invocation.secret(), environment);
        return out.toString(StandardCharsets.UTF_8);
    }
}
