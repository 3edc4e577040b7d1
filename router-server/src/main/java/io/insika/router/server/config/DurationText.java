package io.insika.router.server.config;

import java.math.BigInteger;
import java.time.Duration;
import java.time.format.DateTimeParseException;
import java.util.Locale;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Reads a duration as operators write it: a bare number is seconds (the seed's environment
 * variables are seconds, and YAML accepts the same), a number with a unit ({@code 500ms},
 * {@code 10s}, {@code 2m}, {@code 1h}), or ISO-8601 ({@code PT15S}).
 */
public final class DurationText {

    /** What a valid duration looks like, for error messages. */
    static final String FORMS = "seconds such as 15 or 0.5, or 500ms, 10s, 2m, 1h, or ISO-8601 such as PT15S";

    private static final Pattern WITH_UNIT = Pattern.compile("(\\d+)(?:\\.(\\d+))?\\s*(ms|s|m|h)?");

    private static final BigInteger LONGEST = BigInteger.valueOf(Long.MAX_VALUE);

    private DurationText() {
    }

    static Optional<Duration> parse(String text) {
        String trimmed = text.trim().toLowerCase(Locale.ROOT);
        if (trimmed.startsWith("p")) {
            try {
                return Optional.of(Duration.parse(trimmed.toUpperCase(Locale.ROOT)));
            } catch (DateTimeParseException e) {
                return Optional.empty();
            }
        }
        Matcher matcher = WITH_UNIT.matcher(trimmed);
        if (!matcher.matches()) {
            return Optional.empty();
        }
        long nanosPerUnit = switch (matcher.group(3) == null ? "s" : matcher.group(3)) {
            case "ms" -> 1_000_000L;
            case "m" -> 60_000_000_000L;
            case "h" -> 3_600_000_000_000L;
            default -> 1_000_000_000L;
        };
        // Exact, whole nanoseconds rounded down: the digits as one integer, times the unit, over
        // the power of ten of the fraction's digits. BigInteger, not BigDecimal: on JDK 25 the
        // first BigDecimal costs 25-35 ms of class initialisation (88 ms interpreted), on the
        // main thread in the middle of the start; BigInteger's costs ~1 ms.
        String fraction = matcher.group(2) == null ? "" : matcher.group(2);
        BigInteger nanos = new BigInteger(matcher.group(1) + fraction)
                .multiply(BigInteger.valueOf(nanosPerUnit))
                .divide(BigInteger.TEN.pow(fraction.length()));
        if (nanos.compareTo(LONGEST) > 0) {
            return Optional.empty();
        }
        return Optional.of(Duration.ofNanos(nanos.longValue()));
    }

    // In the form a user writes in the YAML (10s, 500ms, 2m), not ISO-8601's PT10S.
    /**
     * A duration as a person writes it in the YAML.
     *
     * @return the largest whole unit: {@code 10s}, {@code 500ms}, {@code 2m}
     */
    public static String format(Duration duration) {
        long millis = duration.toMillis();
        if (!duration.equals(Duration.ofMillis(millis))) {
            return duration.toString(); // below a millisecond: only ISO says it exactly
        }
        if (millis != 0 && millis % 3_600_000 == 0) {
            return millis / 3_600_000 + "h";
        }
        if (millis != 0 && millis % 60_000 == 0) {
            return millis / 60_000 + "m";
        }
        if (millis % 1_000 == 0) {
            return millis / 1_000 + "s";
        }
        return millis + "ms";
    }
}
