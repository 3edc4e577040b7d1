package io.insika.router.server.token;

import java.nio.ByteBuffer;
import java.nio.CharBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.security.InvalidKeyException;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.Arrays;
import java.util.Base64;
import java.util.Objects;

import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;

/**
 * The route token of an actor key: what a client sends in {@code x-sigx-actor-route} and in the
 * {@code /r/{token}/} path segment, so that the edge places the actor without reading the body.
 * The router never computes one to route (it places by the token itself); this is the
 * definition clients implement, with docs/route-tokens.md and its vectors.
 *
 * <p>Version 1, two forms, each 24 characters of {@code [A-Za-z0-9_-]}:
 * <ul>
 *   <li>{@code hash}: {@code "h1" + base64url(SHA-256(utf8(key))[0..16))}, unpadded. Log
 *       hygiene: the key stays out of access logs and traces, but anyone can recompute it.</li>
 *   <li>{@code hmac}: {@code "k1" + base64url(HMAC-SHA-256(secret, utf8(key))[0..16))},
 *       unpadded. Unlinkable without the secret, for clients that can hold one.</li>
 * </ul>
 * The key must be valid Unicode (no lone surrogate): its UTF-8 bytes are what is hashed.
 */
public final class RouteToken {

    /** The prefix of a version-1 hash token. */
    public static final String HASH_PREFIX = "h1";
    /** The prefix of a version-1 HMAC token. */
    public static final String HMAC_PREFIX = "k1";
    /** An HMAC secret shorter than this is refused: it could be guessed. */
    public static final int MIN_SECRET_BYTES = 16;
    private static final int DIGEST_BYTES = 16;
    private static final Base64.Encoder BASE64URL = Base64.getUrlEncoder().withoutPadding();

    private RouteToken() {
    }

    /**
     * The {@code hash} token of a key.
     *
     * @throws IllegalArgumentException if the key is not valid Unicode
     */
    public static String hash(String key) {
        try {
            return HASH_PREFIX + encode(MessageDigest.getInstance("SHA-256").digest(utf8(key)));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("every JVM has SHA-256", e);
        }
    }

    /**
     * The {@code hmac} token of a key.
     *
     * @param secret at least {@value #MIN_SECRET_BYTES} bytes
     * @throws IllegalArgumentException if the key is not valid Unicode or the secret too short
     */
    public static String hmac(byte[] secret, String key) {
        Objects.requireNonNull(secret, "secret");
        if (secret.length < MIN_SECRET_BYTES) {
            throw new IllegalArgumentException("secret: " + secret.length + " bytes (expected: at least "
                    + MIN_SECRET_BYTES + ")");
        }
        try {
            Mac mac = Mac.getInstance("HmacSHA256");
            mac.init(new SecretKeySpec(secret, "HmacSHA256"));
            return HMAC_PREFIX + encode(mac.doFinal(utf8(key)));
        } catch (NoSuchAlgorithmException | InvalidKeyException e) {
            throw new IllegalStateException("every JVM has HmacSHA256", e);
        }
    }

    private static String encode(byte[] digest) {
        return BASE64URL.encodeToString(Arrays.copyOf(digest, DIGEST_BYTES));
    }

    // Strict: String.getBytes would turn a lone surrogate into '?', which no other language does.
    private static byte[] utf8(String key) {
        Objects.requireNonNull(key, "key");
        try {
            ByteBuffer bytes = StandardCharsets.UTF_8.newEncoder()
                    .onMalformedInput(CodingErrorAction.REPORT)
                    .onUnmappableCharacter(CodingErrorAction.REPORT)
                    .encode(CharBuffer.wrap(key));
            return Arrays.copyOfRange(bytes.array(), bytes.position(), bytes.limit());
        } catch (CharacterCodingException e) {
            throw new IllegalArgumentException("key: not valid Unicode (a lone surrogate)", e);
        }
    }
}
