package io.insika.router.distribution;

import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

class LauncherTest {

    private static final Path OLD_JAVA_HOME = Path.of(System.getProperty("insika.old.java.home"));

    private final UnpackedDistribution dist = UnpackedDistribution.unpack();

    @Test
    void versionNamesTheBuiltVersion() {
        RouterProcess.Result version = RouterProcess.run(dist, Map.of(), "--version");

        assertEquals(0, version.exitCode(), version.stderr());
        assertEquals("insika-router " + UnpackedDistribution.VERSION, version.stdout().strip());
    }

    @Test
    void scriptReachedThroughASymlinkFindsItsHome() throws Exception {
        Path link = Files.createSymbolicLink(dist.home().getParent().resolve("insika-router-link"), dist.script());

        RouterProcess.Result help = RouterProcess.run(link, System.getProperty("java.home"), Map.of(), "--help");

        assertEquals(0, help.exitCode(), help.stderr());
        assertTrue(help.stdout().contains("insika-router demo"), help.stdout());
    }

    @Test
    void unknownArgumentGivesAUsageLineAndExitsTwo() {
        RouterProcess.Result wrong = RouterProcess.run(dist, Map.of(), "check", "--frobnicate");

        assertEquals(2, wrong.exitCode());
        assertEquals(2, wrong.errorLines().size(), wrong.stderr());
        assertTrue(wrong.errorLines().get(0).contains("--frobnicate"), wrong.stderr());
        assertTrue(wrong.errorLines().get(1).startsWith("usage: insika-router"), wrong.stderr());
    }

    @Test
    void javaOlderThan21IsRefusedInOneLine() {
        Assumptions.assumeTrue(Files.isExecutable(OLD_JAVA_HOME.resolve("bin/java")),
                "no Java 17 at " + OLD_JAVA_HOME + ": the old-java refusal is not exercised on this machine");

        RouterProcess.Result refused = RouterProcess.run(dist.script(), OLD_JAVA_HOME.toString(), Map.of(), "--version");

        assertEquals(1, refused.exitCode());
        assertEquals(1, refused.errorLines().size(), refused.stderr());
        assertTrue(refused.stderr().matches("(?s).*is Java 17[.0-9]*, but insika-router needs Java 21 or newer.*"), refused.stderr());
        assertEquals("", refused.stdout());
    }

    @Test
    void aJvmOptionsLineForOtherJavaVersionsIsSkipped() throws Exception {
        int java = Runtime.version().feature();
        // an option no Java knows: the JVM would refuse to start if any of these lines reached it
        Files.writeString(dist.home().resolve("conf/jvm.options"), String.join("\n",
                (java + 1) + "-:-XX:+NoSuchOptionInAnyJava",
                "21-" + (java - 1) + ":-XX:+NoSuchOptionInAnyJava",
                (java + 1) + ":-XX:+NoSuchOptionInAnyJava",
                java + ":-XX:MaxJavaStackTraceDepth=1234",
                "21-" + java + ":-XX:PerMethodTrapLimit=77",
                "21-:-XX:+PrintCommandLineFlags",
                ""), StandardOpenOption.APPEND);

        RouterProcess.Result version = RouterProcess.run(dist, Map.of(), "--version");

        assertEquals(0, version.exitCode(), version.stderr());
        assertTrue(version.stdout().contains("-XX:MaxJavaStackTraceDepth=1234"), version.stdout());
        assertTrue(version.stdout().contains("-XX:PerMethodTrapLimit=77"), version.stdout());
        assertTrue(version.stdout().contains("insika-router " + UnpackedDistribution.VERSION), version.stdout());
    }

    @Test
    void aJvmOptionsLineWithAMalformedVersionStopsTheStartAndSaysWhere() throws Exception {
        Files.writeString(dist.home().resolve("conf/jvm.options"), "2x-:-Xss1m\n", StandardOpenOption.APPEND);

        RouterProcess.Result refused = RouterProcess.run(dist, Map.of(), "--version");

        assertEquals(1, refused.exitCode());
        assertEquals(1, refused.errorLines().size(), refused.stderr());
        assertTrue(refused.stderr().contains("conf/jvm.options: \"2x-:\" is not a Java version range"), refused.stderr());
    }

    @Test
    void theShippedOptionsTrimTheNativeHeapOnJava23AndNewer() {
        Assumptions.assumeTrue(Runtime.version().feature() >= 23, "the switch is experimental or missing before 23");

        RouterProcess.Result version = RouterProcess.run(dist, Map.of("INSIKA_ROUTER_JAVA_OPTS",
                "-XX:+PrintCommandLineFlags"), "--version");

        assertEquals(0, version.exitCode(), version.stderr());
        assertTrue(version.stdout().contains("-XX:TrimNativeHeapInterval="), version.stdout());
    }

    @Test
    void heapOptsReplaceTheShippedHeapSoAMaximumBelowItsInitialSizeWorks() {
        // -Xmx64m in INSIKA_ROUTER_JAVA_OPTS alone would clash with the shipped -Xms112m
        try (WhoAmIBackend backend = new WhoAmIBackend("backend-a");
             RouterProcess router = RouterProcess.start(dist, Map.of("INSIKA_ROUTER_HEAP_OPTS", "-Xmx64m -Xms64m"),
                     "--config", dist.configFor(List.of(backend), "").toString()).awaitListening()) {
            assertEquals("backend-a", Http.postJson(router.port(), "/v1/responses", "{\"user\":\"u\"}").body());
            Matcher max = Pattern.compile("(?m)^jvm_memory_max_bytes\\{area=\"heap\"} (\\S+)$")
                    .matcher(Http.get(router.adminPort(), "/observe/metrics", Map.of()).body());
            assertTrue(max.find(), "the heap's maximum is exported");
            double mebibytes = Double.parseDouble(max.group(1)) / (1 << 20);
            assertTrue(mebibytes > 48 && mebibytes <= 64, "heap maximum " + mebibytes + " MiB, expected about 64");
        }
    }
}
