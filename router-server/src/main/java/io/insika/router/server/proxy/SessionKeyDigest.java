package io.insika.router.server.proxy;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;

/**
 * A short, stable stand-in for a session key in logs: keys are never logged in clear. This is
 * log hygiene, not privacy (an unkeyed hash of a guessable key can be reversed by guessing).
 */
final class SessionKeyDigest {

    private SessionKeyDigest() {
    }

    static String of(String key) {
        try {
            byte[] digest = MessageDigest.getInstance("SHA-256").digest(key.getBytes(StandardCharsets.UTF_8));
            return "#" + HexFormat.of().formatHex(digest, 0, 6);
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("every JDK has SHA-256", e);
        }
    }
}
