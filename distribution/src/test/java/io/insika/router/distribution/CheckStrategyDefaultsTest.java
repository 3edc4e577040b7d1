package io.insika.router.distribution;

import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * {@code check --against} compares what places keys, not how it was spelt: a strategy option
 * written out at its default (the shipped file's {@code compat: none}) is no change from one
 * left out, either way round; another value is a strategy change.
 */
class CheckStrategyDefaultsTest {

    private static final String EXPLICIT = "strategy: { name: ketama, options: { compat: none } }";

    private final UnpackedDistribution dist = UnpackedDistribution.unpack();

    @Test
    void aDefaultWrittenOutIsTheSamePlacementAndConfigurationAsOneLeftOut() {
        try (WhoAmIBackend a = new WhoAmIBackend("a"); WhoAmIBackend b = new WhoAmIBackend("b");
             RouterProcess omitted = start(List.of(a, b), "");
             RouterProcess explicit = start(List.of(a, b), EXPLICIT)) {

            RouterProcess.Result writtenAgainstOmitted = check(List.of(a, b), EXPLICIT, omitted);
            RouterProcess.Result omittedAgainstWritten = check(List.of(a, b), "", explicit);

            for (RouterProcess.Result check : List.of(writtenAgainstOmitted, omittedAgainstWritten)) {
                assertEquals(0, check.exitCode(), check.stderr());
                assertTrue(check.stdout().contains("same placement: every key stays with its owner"), check.stdout());
                assertTrue(check.stdout().contains("same configuration as the running router: a reload would change"
                        + " nothing"), check.stdout());
            }
        }
    }

    @Test
    void anotherValueOfTheOptionIsAStrategyChange() {
        try (WhoAmIBackend a = new WhoAmIBackend("a"); WhoAmIBackend b = new WhoAmIBackend("b");
             RouterProcess omitted = start(List.of(a, b), "")) {

            RouterProcess.Result check = check(List.of(a, b), "strategy: { name: ketama, options: { compat: libketama } }",
                    omitted);

            assertEquals(0, check.exitCode(), check.stderr());
            assertTrue(check.stdout().contains("placement differs: "), check.stdout());
            assertTrue(check.stdout().contains("a reload would be refused: the strategy changes"), check.stdout());
        }
    }

    private RouterProcess start(List<WhoAmIBackend> backends, String extra) {
        return RouterProcess.start(dist, Map.of(), "--config", dist.configFor(backends, extra).toString())
                .awaitListening();
    }

    private RouterProcess.Result check(List<WhoAmIBackend> backends, String extra, RouterProcess running) {
        return RouterProcess.run(dist, Map.of(), "check", "--config", dist.configFor(backends, extra).toString(),
                "--against", "http://127.0.0.1:" + running.adminPort());
    }
}
