package io.insika.router.server.cli;

import java.util.Optional;

/**
 * What {@code bin/insika-router} decided about the distribution's AOT cache
 * ({@code -Dinsika.router.aot-cache}), in words for the start-up log: a start that is suddenly
 * slower says why.
 */
final class AotCache {

    static final String PROPERTY = "insika.router.aot-cache";

    private AotCache() {
    }

    /** The line to log, or nothing when not started by the script. */
    static Optional<String> describe() {
        return Optional.ofNullable(System.getProperty(PROPERTY)).map(status -> switch (status) {
            case "used" -> mapped()
                    ? "start-up cache lib/insika-router.aot: in use"
                    : "start-up cache lib/insika-router.aot: not in use (-XX:AOTMode=off, or the JVM could not map it:"
                            + " -Xlog:aot says why); starting without it, slower";
            case "other-java" -> "start-up cache lib/insika-router.aot: not used, it was built by another Java"
                    + " (this is " + System.getProperty("java.runtime.version") + "); starting without it, slower";
            case "other-jars" -> "start-up cache lib/insika-router.aot: not used, the jars in lib/ changed since"
                    + " it was built; starting without it, slower";
            default -> "start-up cache: none (the distribution is built with one on JDK 25 and newer)";
        });
    }

    // HotSpot says "sharing" in java.vm.info while it runs on a mapped archive; the script passes
    // no other archive, and a cache it cannot map leaves the JVM without one. Asking the
    // diagnostic MXBean for AOTMode instead cost 60-70 ms of the start: the first
    // ManagementFactory use initialises the platform MXBean providers, interpreted.
    private static boolean mapped() {
        return System.getProperty("java.vm.info", "").contains("sharing");
    }
}
