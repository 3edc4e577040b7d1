package io.insika.router.server.session;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.security.MessageDigest;
import java.util.Arrays;
import java.util.Base64;
import java.util.HexFormat;
import java.util.Objects;
import java.util.Optional;

import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;

import io.insika.router.server.secret.SecretFile;

/**
 * Seals the backend that minted a session id into the value its client sees, so that any router
 * replica holding the same secret routes the session back there with no shared state. Version
 * 1, the definition docs/sessions.md gives with its vectors:
 * <pre>
 * sealed = "s1" "." base64url(owner) "." base64url(tag) "." original
 * tag    = HMAC-SHA-256(k, "s1" || u32be(len(owner)) || owner || u32be(len(original)) || original)[0..16)
 * k      = HMAC-SHA-256(secret, "insika-router session seal v1")
 * </pre>
 * {@code owner} is the backend's placement id in UTF-8, {@code original} the value as the backend
 * sent it (visible ASCII, 0x21 to 0x7E, so its octets are its characters); base64url is RFC 4648
 * section 5 without padding. The original may hold dots: a value is split at its first three.
 * A previous secret, when given, still opens what it sealed, so replicas can move to a new
 * secret one at a time without ending sessions; only the current one seals.
 */
public final class SessionSeal {

    /** The version prefix of what this seals. */
    public static final String VERSION = "s1";
    /** A secret shorter than this is refused: 256 bits, the HMAC's own strength. */
    public static final int MIN_SECRET_BYTES = 32;
    /** A value longer than this is never opened, and an original that would seal longer never sealed. */
    public static final int MAX_SEALED_CHARS = 1024;
    static final String KEY_LABEL = "insika-router session seal v1";
    private static final int TAG_BYTES = 16;
    private static final int TAG_CHARS = 22;
    private static final Base64.Encoder BASE64URL = Base64.getUrlEncoder().withoutPadding();
    private static final Base64.Decoder FROM_BASE64URL = Base64.getUrlDecoder();

    /** No secret: seals and opens nothing; a route that learns keys refuses to start with it. */
    public static final SessionSeal NONE = new SessionSeal(null, null, "none");

    /** What a valid sealed value says: the backend that minted it and what it minted. */
    public record Opened(String ownerId, String original) {
        public Opened {
            Objects.requireNonNull(ownerId, "ownerId");
            Objects.requireNonNull(original, "original");
        }
    }

    // initialised prototypes, cloned per use: getInstance and init cost a provider lookup each
    private final Mac current;
    private final Mac previous;
    private final String description;

    private SessionSeal(Mac current, Mac previous, String description) {
        this.current = current;
        this.previous = previous;
        this.description = description;
    }

    /**
     * A seal keyed by these secrets.
     *
     * @param secret   the current secret, at least {@link #MIN_SECRET_BYTES} bytes: seals and opens
     * @param previous the one before it, if any: only opens
     * @throws IllegalArgumentException if a secret is too short
     */
    public static SessionSeal of(byte[] secret, Optional<byte[]> previous) {
        Mac mac = mac(secret, "secret");
        Mac old = previous.isPresent() ? mac(previous.get(), "previous secret") : null;
        return new SessionSeal(mac, old, "key " + fingerprint(mac) + (old == null ? "" : ", previous " + fingerprint(old)));
    }

    /**
     * Reads the secrets from files: each file's bytes, less one trailing line end.
     *
     * @throws IllegalArgumentException naming the file, if one is unreadable or too short
     */
    public static SessionSeal read(Path secretFile, Optional<Path> previousFile) {
        byte[] secret = bytes(secretFile);
        Optional<byte[]> previous = previousFile.map(SessionSeal::bytes);
        try {
            return of(secret, previous);
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException("[" + (secret.length < MIN_SECRET_BYTES ? secretFile
                    : previousFile.orElseThrow()) + "] " + e.getMessage(), e);
        }
    }

    /** Whether a secret was given: without one nothing is sealed. */
    public boolean isConfigured() {
        return current != null;
    }

    /**
     * Seals a value a backend minted.
     *
     * @param ownerId  the id of the backend that answered with it
     * @param original its value: non-empty, visible ASCII
     * @throws IllegalArgumentException if the original is empty or holds another octet, or the
     *                                  sealed value would be longer than {@link #MAX_SEALED_CHARS}
     * @throws IllegalStateException    if no secret is configured
     */
    public String seal(String ownerId, String original) {
        if (current == null) {
            throw new IllegalStateException("no session secret");
        }
        if (!sealable(original)) {
            throw new IllegalArgumentException("original: not 1 or more visible ASCII characters (0x21 to 0x7E)");
        }
        byte[] owner = ownerId.getBytes(StandardCharsets.UTF_8);
        String sealed = VERSION + "." + BASE64URL.encodeToString(owner) + "."
                + BASE64URL.encodeToString(tag(current, owner, original)) + "." + original;
        if (sealed.length() > MAX_SEALED_CHARS) {
            throw new IllegalArgumentException("original: " + original.length() + " characters, too long to seal"
                    + " within " + MAX_SEALED_CHARS);
        }
        return sealed;
    }

    /** Whether a value may be sealed: non-empty, visible ASCII. */
    public static boolean sealable(String original) {
        if (original.isEmpty()) {
            return false;
        }
        for (int i = 0; i < original.length(); i++) {
            char c = original.charAt(i);
            if (c < 0x21 || c > 0x7e) {
                return false;
            }
        }
        return true;
    }

    /**
     * Opens a value a client sent.
     *
     * @return the owner and original, or empty if it is not one this secret (or the previous one)
     *         sealed: another version, malformed, too long, or a tag that does not match
     */
    public Optional<Opened> open(String value) {
        if (current == null || value.length() > MAX_SEALED_CHARS || !value.startsWith(VERSION + ".")) {
            return Optional.empty();
        }
        int ownerStart = VERSION.length() + 1;
        int ownerEnd = value.indexOf('.', ownerStart);
        int tagEnd = ownerEnd < 0 ? -1 : value.indexOf('.', ownerEnd + 1);
        if (tagEnd < 0 || tagEnd - ownerEnd - 1 != TAG_CHARS) {
            return Optional.empty();
        }
        Optional<byte[]> owner = decode(value.substring(ownerStart, ownerEnd));
        Optional<byte[]> tag = decode(value.substring(ownerEnd + 1, tagEnd));
        String original = value.substring(tagEnd + 1);
        if (owner.isEmpty() || owner.get().length == 0 || tag.isEmpty() || !sealable(original)) {
            return Optional.empty();
        }
        Optional<String> ownerId = utf8(owner.get());
        if (ownerId.isEmpty() || !(matches(current, owner.get(), original, tag.get())
                || previous != null && matches(previous, owner.get(), original, tag.get()))) {
            return Optional.empty();
        }
        return Optional.of(new Opened(ownerId.get(), original));
    }

    /** The current secret's fingerprint ({@code #1a2b3c}), or empty without one. */
    public Optional<String> fingerprint() {
        return current == null ? Optional.empty() : Optional.of(fingerprint(current));
    }

    /** The previous secret's fingerprint, or empty without one. */
    public Optional<String> previousFingerprint() {
        return previous == null ? Optional.empty() : Optional.of(fingerprint(previous));
    }

    /** What a log or a reload report may say of the secrets: a short one-way fingerprint of each. */
    @Override
    public String toString() {
        return description;
    }

    private static boolean matches(Mac key, byte[] owner, String original, byte[] tag) {
        return MessageDigest.isEqual(tag(key, owner, original), tag);
    }

    private static byte[] tag(Mac prototype, byte[] owner, String original) {
        Mac mac = clone(prototype);
        byte[] originalBytes = original.getBytes(StandardCharsets.US_ASCII);
        mac.update(VERSION.getBytes(StandardCharsets.US_ASCII));
        mac.update(ByteBuffer.allocate(4).putInt(owner.length).array());
        mac.update(owner);
        mac.update(ByteBuffer.allocate(4).putInt(originalBytes.length).array());
        mac.update(originalBytes);
        return Arrays.copyOf(mac.doFinal(), TAG_BYTES);
    }

    // Canonical unpadded base64url only: one value, one spelling.
    private static Optional<byte[]> decode(String text) {
        for (int i = 0; i < text.length(); i++) {
            char c = text.charAt(i);
            if (!(c >= 'A' && c <= 'Z' || c >= 'a' && c <= 'z' || c >= '0' && c <= '9' || c == '-' || c == '_')) {
                return Optional.empty();
            }
        }
        try {
            byte[] bytes = FROM_BASE64URL.decode(text);
            return BASE64URL.encodeToString(bytes).equals(text) ? Optional.of(bytes) : Optional.empty();
        } catch (IllegalArgumentException e) {
            return Optional.empty();
        }
    }

    private static Optional<String> utf8(byte[] bytes) {
        try {
            return Optional.of(StandardCharsets.UTF_8.newDecoder()
                    .onMalformedInput(CodingErrorAction.REPORT)
                    .onUnmappableCharacter(CodingErrorAction.REPORT)
                    .decode(ByteBuffer.wrap(bytes)).toString());
        } catch (CharacterCodingException e) {
            return Optional.empty();
        }
    }

    // The sealing key is derived with a label, so the same secret file may key other things.
    private static Mac mac(byte[] secret, String what) {
        Objects.requireNonNull(secret, what);
        if (secret.length < MIN_SECRET_BYTES) {
            throw new IllegalArgumentException(what + ": " + secret.length + " bytes (expected: at least "
                    + MIN_SECRET_BYTES + ", such as the output of: head -c 32 /dev/urandom | base64)");
        }
        try {
            Mac derive = Mac.getInstance("HmacSHA256");
            derive.init(new SecretKeySpec(secret, "HmacSHA256"));
            byte[] key = derive.doFinal(KEY_LABEL.getBytes(StandardCharsets.US_ASCII));
            Mac mac = Mac.getInstance("HmacSHA256");
            mac.init(new SecretKeySpec(key, "HmacSHA256"));
            return mac;
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("every JVM has HmacSHA256", e);
        }
    }

    private static Mac clone(Mac prototype) {
        try {
            return (Mac) prototype.clone();
        } catch (CloneNotSupportedException e) {
            throw new IllegalStateException("the JDK's HmacSHA256 clones", e);
        }
    }

    // Six hex digits of a MAC under the derived key: tells two secrets apart, reveals neither.
    private static String fingerprint(Mac key) {
        byte[] mac = clone(key).doFinal("fingerprint".getBytes(StandardCharsets.US_ASCII));
        return "#" + HexFormat.of().formatHex(mac, 0, 3);
    }

    private static byte[] bytes(Path file) {
        try {
            return SecretFile.read(file);
        } catch (IOException | SecurityException e) {
            throw new IllegalArgumentException("[" + file + "] (expected: a readable file holding the session secret,"
                    + " " + MIN_SECRET_BYTES + " bytes or more): " + e.getMessage(), e);
        }
    }
}
