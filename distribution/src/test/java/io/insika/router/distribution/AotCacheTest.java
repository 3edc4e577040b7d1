package io.insika.router.distribution;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/**
 * The AOT cache the build trains into lib/ (JDK 25+): used when it matches the JVM and the jars,
 * passed over, with a line saying why, when either changed; the router starts and serves
 * either way.
 */
class AotCacheTest {

    private static final WhoAmIBackend BACKEND = new WhoAmIBackend("backend-a");

    @AfterAll
    static void stopBackend() {
        BACKEND.close();
    }

    @Test
    void theTarballShipsACacheBuiltByThisJdkForItsJars() throws Exception {
        UnpackedDistribution dist = UnpackedDistribution.unpack();
        Path lib = dist.home().resolve("lib");
        assumeTrue(Runtime.version().feature() >= 25, "the cache is built on JDK 25 and newer");

        assertTrue(Files.size(lib.resolve(AotTraining.CACHE)) > 1 << 20, "a cache of real size");
        assertEquals(AotTraining.fingerprint(dist.home()), Files.readString(lib.resolve(AotTraining.CACHE_ID)));
    }

    @Test
    void aMatchingCacheIsUsed() {
        assumeTrue(Runtime.version().feature() >= 25, "the cache is built on JDK 25 and newer");
        String log = serveOnce(UnpackedDistribution.unpack(), Map.of());

        assertTrue(log.contains("start-up cache lib/insika-router.aot: in use"), log);
    }

    @Test
    void aJarAddedToLibVoidsTheCacheAndTheRouterStartsWithoutIt() throws Exception {
        assumeTrue(Runtime.version().feature() >= 25, "the cache is built on JDK 25 and newer");
        UnpackedDistribution dist = UnpackedDistribution.unpack();
        Files.copy(dist.routerApiJar(), dist.home().resolve("lib/extra-0.1.jar"));

        String log = serveOnce(dist, Map.of());

        assertTrue(log.contains("not used, the jars in lib/ changed since it was built; starting without it"), log);
        assertFalse(log.contains("in use"), log);
    }

    @Test
    void aCacheOfAnotherJavaIsPassedOver() throws Exception {
        assumeTrue(Runtime.version().feature() >= 25, "the cache is built on JDK 25 and newer");
        UnpackedDistribution dist = UnpackedDistribution.unpack();
        Path id = dist.home().resolve("lib").resolve(AotTraining.CACHE_ID);
        List<String> lines = Files.readAllLines(id);
        lines.set(0, "25.0.0+1-other");
        Files.write(id, lines);

        String log = serveOnce(dist, Map.of());

        assertTrue(log.contains("not used, it was built by another Java (this is " + Runtime.version() + ")"), log);
    }

    @Test
    void aotModeOffInTheJavaOptionsTurnsItOff() {
        assumeTrue(Runtime.version().feature() >= 25, "the cache is built on JDK 25 and newer");
        String log = serveOnce(UnpackedDistribution.unpack(), Map.of("INSIKA_ROUTER_JAVA_OPTS", "-XX:AOTMode=off"));

        assertTrue(log.contains("start-up cache lib/insika-router.aot: not in use (-XX:AOTMode=off"), log);
    }

    @Test
    void withoutACacheTheRouterSaysSoAndServes() throws Exception {
        UnpackedDistribution dist = UnpackedDistribution.unpack();
        Files.deleteIfExists(dist.home().resolve("lib").resolve(AotTraining.CACHE));

        String log = serveOnce(dist, Map.of());

        assertTrue(log.contains("start-up cache: none"), log);
    }

    /** Starts the distribution, proves it proxies, stops it; returns what it logged. */
    private static String serveOnce(UnpackedDistribution dist, Map<String, String> env) {
        Path config = dist.configFor(List.of(BACKEND), "");
        try (RouterProcess router = RouterProcess.start(dist, env, "--config", config.toString()).awaitListening()) {
            assertEquals("backend-a", Http.postJson(router.port(), "/v1/responses", "{\"user\":\"u\"}").body());
            RouterProcess.Result result = router.terminate();
            assertEquals(0, result.exitCode(), result.stderr());
            assertFalse(result.stdout().contains("[warning]"), "no JVM warnings: " + result.stdout());
            return result.stderr();
        }
    }
}
