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

    // Cloning a ready digest skips the provider lookup of getInstance: this runs on every keyed
    // request when the access log is on.
    private static final MessageDigest SHA_256 = sha256();

    static String of(String key) {
        MessageDigest digest;
        try {
            digest = (MessageDigest) SHA_256.clone();
        } catch (CloneNotSupportedException e) {
            digest = sha256();
        }
        return "#" + HexFormat.of().formatHex(digest.digest(key.getBytes(StandardCharsets.UTF_8)), 0, 6);
    }

    private static MessageDigest sha256() {
        try {
            return MessageDigest.getInstance("SHA-256");
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("every JDK has SHA-256", e);
        }
    }
}
