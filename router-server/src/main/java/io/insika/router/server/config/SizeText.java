package io.insika.router.server.config;

import java.util.Locale;
import java.util.OptionalLong;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Reads a number of bytes as operators write it: plain bytes ({@code 262144}, {@code 512B}) or
 * with a binary unit ({@code 256KiB}, {@code 1MiB}, {@code 2GiB}), in any case, a blank allowed
 * before the unit. {@code KB}, {@code k} and the like are refused: nginx reads {@code k} as 1024
 * and others {@code kB} as 1000, so the unit says which.
 */
final class SizeText {

    /** What a valid size looks like, for error messages. */
    static final String FORMS = "bytes such as 262144, or with a unit: 256KiB, 1MiB, 1GiB";

    private static final Pattern SIZE = Pattern.compile("(\\d{1,19})\\s*(b|kib|mib|gib)?");

    private SizeText() {
    }

    /** @return the bytes, or empty when the text is no size or more than {@link Long#MAX_VALUE} */
    static OptionalLong parse(String text) {
        Matcher matcher = SIZE.matcher(text.trim().toLowerCase(Locale.ROOT));
        if (!matcher.matches()) {
            return OptionalLong.empty();
        }
        int shift = switch (matcher.group(2) == null ? "b" : matcher.group(2)) {
            case "kib" -> 10;
            case "mib" -> 20;
            case "gib" -> 30;
            default -> 0;
        };
        try {
            long number = Long.parseLong(matcher.group(1));
            return number > Long.MAX_VALUE >> shift ? OptionalLong.empty() : OptionalLong.of(number << shift);
        } catch (NumberFormatException e) {
            return OptionalLong.empty();
        }
    }
}
