package io.insika.router.server.cli;

import java.lang.management.ManagementFactory;
import java.util.Optional;

import com.sun.management.HotSpotDiagnosticMXBean;

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
            case "used" -> aotMode().equals("off")
                    ? "start-up cache lib/insika-router.aot: off (-XX:AOTMode=off)"
                    : "start-up cache lib/insika-router.aot: in use";
            case "other-java" -> "start-up cache lib/insika-router.aot: not used, it was built by another Java"
                    + " (this is " + System.getProperty("java.runtime.version") + "); starting without it, slower";
            case "other-jars" -> "start-up cache lib/insika-router.aot: not used, the jars in lib/ changed since"
                    + " it was built; starting without it, slower";
            default -> "start-up cache: none (the distribution is built with one on JDK 25 and newer)";
        });
    }

    private static String aotMode() {
        try {
            return ManagementFactory.getPlatformMXBean(HotSpotDiagnosticMXBean.class).getVMOption("AOTMode").getValue();
        } catch (IllegalArgumentException e) {
            return ""; // a JVM without the option (before 24) cannot have been given a cache
        }
    }
}
