package io.insika.router.server.proxy;

import java.security.SecureRandom;
import java.util.HexFormat;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;

import io.helidon.http.HeaderName;
import io.helidon.http.HeaderNames;
import io.helidon.http.ServerRequestHeaders;

/**
 * The request's {@code X-Request-Id}: the client's when it is one plain id, otherwise one the
 * router makes. The backend gets it, the client gets it back on every answer (relayed, the
 * router's own, a tunnel's), and the access log writes it, so the three lines can be joined.
 *
 * <p>A client's value is kept when the request has exactly one, of 1 to {@value #MAX_LENGTH}
 * characters, each an RFC 9110 {@code tchar} (letters, digits and {@code !#$%&'*+-.^_`|~}) or
 * one of {@code / = :} (base64 and URN-like ids). Anything else (spaces, quotes, commas, control
 * characters, non-ASCII, longer, two fields) is replaced, never relayed: a log line or a
 * backend must not take a client's bytes for a second field.
 *
 * <p>A made id is a per-process random prefix and a counter, {@code 5f0c3e9a1b7d4c26-1a}: unique
 * within the process, and across processes as far as 64 random bits go. It costs an atomic
 * increment, not a {@code SecureRandom} draw per request.
 */
final class RequestId {

    static final HeaderName HEADER = HeaderNames.create("X-Request-Id");
    static final int MAX_LENGTH = 128;
    private static final String PREFIX = HexFormat.of().formatHex(randomBytes()) + "-";
    private static final AtomicLong COUNTER = new AtomicLong();
    private static final boolean[] ALLOWED = new boolean[128];

    static {
        for (char c = '0'; c <= '9'; c++) {
            ALLOWED[c] = true;
        }
        for (char c = 'a'; c <= 'z'; c++) {
            ALLOWED[c] = true;
            ALLOWED[c - 'a' + 'A'] = true;
        }
        for (char c : "!#$%&'*+-.^_`|~/=:".toCharArray()) {
            ALLOWED[c] = true;
        }
    }

    private RequestId() {
    }

    private static byte[] randomBytes() {
        byte[] bytes = new byte[8];
        new SecureRandom().nextBytes(bytes);
        return bytes;
    }

    /** The client's id when it is valid, else a new one. */
    static String of(ServerRequestHeaders headers) {
        if (headers.contains(HEADER)) {
            List<String> values = headers.values(HEADER);
            if (values.size() == 1 && valid(values.getFirst())) {
                return values.getFirst();
            }
        }
        return next();
    }

    /** A new id, for a request whose client sent none that can be kept. */
    static String next() {
        return PREFIX + Long.toHexString(COUNTER.incrementAndGet());
    }

    /** Whether a client's value is kept as it is. */
    static boolean valid(String value) {
        int length = value.length();
        if (length == 0 || length > MAX_LENGTH) {
            return false;
        }
        for (int i = 0; i < length; i++) {
            char c = value.charAt(i);
            if (c >= ALLOWED.length || !ALLOWED[c]) {
                return false;
            }
        }
        return true;
    }
}
