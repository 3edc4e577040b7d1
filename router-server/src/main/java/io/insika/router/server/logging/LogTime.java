package io.insika.router.server.logging;

import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.time.format.DateTimeFormatterBuilder;

/** A log record's time in RFC 3339, UTC, to the millisecond: {@code 2026-12-03T17:33:04.123Z}. */
final class LogTime {

    // always three digits of fraction, unlike Instant.toString(), which drops them on a whole second
    private static final DateTimeFormatter RFC_3339 = new DateTimeFormatterBuilder()
            .appendPattern("uuuu-MM-dd'T'HH:mm:ss.SSS")
            .appendOffset("+HH:MM", "Z") // UTC is written Z
            .toFormatter()
            .withZone(ZoneOffset.UTC);

    private LogTime() {
    }

    static String format(Instant time) {
        return RFC_3339.format(time);
    }
}
