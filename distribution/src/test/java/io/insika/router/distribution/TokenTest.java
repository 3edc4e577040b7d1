package io.insika.router.distribution;

import java.nio.charset.StandardCharsets;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** What an actor client's developer gets in the tarball: the token command and references that agree with it. */
class TokenTest {

    private final UnpackedDistribution dist = UnpackedDistribution.unpack();

    @Test
    void theTokenCommandPrintsTheDocumentedVector() {
        RouterProcess.Result token = RouterProcess.run(dist, Map.of(), "token", "alice");

        assertEquals(0, token.exitCode(), token.stderr());
        assertEquals("h1K9gGyX8OAK8aH8Myj6djqQ", token.stdout().strip());
    }

    @Test
    void theShippedReferencesPassTheShippedVectors() throws Exception {
        for (String[] command : new String[][] {
                {"node", "clients/js/route-token.mjs", "--check", "clients/route-token-vectors.json"},
                {"python3", "clients/python/route_token.py", "--check", "clients/route-token-vectors.json"}}) {
            Process process = new ProcessBuilder(command).directory(dist.home().toFile()).redirectErrorStream(true)
                    .start();
            String output = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
            assertTrue(process.waitFor(30, TimeUnit.SECONDS));
            assertEquals(0, process.exitValue(), output);
            assertTrue(output.contains("0 mismatches"), output);
        }
    }
}
