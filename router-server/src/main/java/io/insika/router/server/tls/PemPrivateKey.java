package io.insika.router.server.tls;

import java.io.ByteArrayOutputStream;
import java.security.GeneralSecurityException;
import java.security.KeyFactory;
import java.security.PrivateKey;
import java.security.spec.PKCS8EncodedKeySpec;
import java.util.List;
import java.util.Optional;

/**
 * A private key from a PEM file in the three unencrypted encodings certificate tools write:
 * PKCS#8 ({@code PRIVATE KEY}: openssl 3, most CAs), PKCS#1 ({@code RSA PRIVATE KEY}) and SEC1
 * ({@code EC PRIVATE KEY}), the last two being cert-manager's default encoding. The JDK reads
 * PKCS#8 only, so the other two are wrapped into it: the same key with its algorithm named.
 */
final class PemPrivateKey {

    // AlgorithmIdentifier contents: OID rsaEncryption and NULL parameters; OID id-ecPublicKey
    private static final byte[] RSA_ENCRYPTION = {0x06, 0x09, 0x2a, (byte) 0x86, 0x48, (byte) 0x86, (byte) 0xf7, 0x0d,
            0x01, 0x01, 0x01, 0x05, 0x00};
    private static final byte[] EC_PUBLIC_KEY = {0x06, 0x07, 0x2a, (byte) 0x86, 0x48, (byte) 0xce, 0x3d, 0x02, 0x01};
    private static final List<String> ALGORITHMS = List.of("RSA", "EC", "EdDSA", "RSASSA-PSS");

    private PemPrivateKey() {
    }

    /**
     * @param blocks the file's PEM blocks
     * @return the key of its first private key block
     * @throws IllegalArgumentException saying why there is none that can be read
     */
    static PrivateKey read(List<PemBlocks.Block> blocks) {
        for (PemBlocks.Block block : blocks) {
            switch (block.type()) {
                case "PRIVATE KEY" -> {
                    return pkcs8(block.der());
                }
                case "RSA PRIVATE KEY" -> {
                    return pkcs8(sequence(der(0x02, new byte[] {0}), der(0x30, RSA_ENCRYPTION), der(0x04, block.der())));
                }
                case "EC PRIVATE KEY" -> {
                    byte[] curve = sec1Curve(block.der()).orElseThrow(() -> new IllegalArgumentException(
                            "its EC PRIVATE KEY does not name its curve"));
                    return pkcs8(sequence(der(0x02, new byte[] {0}), der(0x30, EC_PUBLIC_KEY, curve),
                            der(0x04, block.der())));
                }
                case "ENCRYPTED PRIVATE KEY" -> throw new IllegalArgumentException("its key is encrypted, and the"
                        + " router has no passphrase: write it unencrypted (openssl pkcs8 -topk8 -nocrypt) on a file"
                        + " only the router's user reads");
                default -> {
                    // a certificate or EC PARAMETERS beside the key
                }
            }
        }
        throw new IllegalArgumentException("it holds no PEM private key (expected: a PRIVATE KEY, RSA PRIVATE KEY"
                + " or EC PRIVATE KEY block)");
    }

    private static PrivateKey pkcs8(byte[] der) {
        for (String algorithm : ALGORITHMS) {
            try {
                return KeyFactory.getInstance(algorithm).generatePrivate(new PKCS8EncodedKeySpec(der));
            } catch (GeneralSecurityException | RuntimeException e) {
                // not this algorithm's
            }
        }
        throw new IllegalArgumentException("its private key is not an RSA, EC or EdDSA key this JVM reads");
    }

    // ECPrivateKey ::= SEQUENCE { version, privateKey OCTET STRING, [0] parameters OPTIONAL, [1] publicKey OPTIONAL }
    // (RFC 5915): the named curve's OID, whole, from [0]
    private static Optional<byte[]> sec1Curve(byte[] der) {
        Der outer = Der.at(der, 0);
        if (outer == null || outer.tag() != 0x30) {
            return Optional.empty();
        }
        int at = outer.contentStart();
        while (at < outer.end()) {
            Der element = Der.at(der, at);
            if (element == null) {
                return Optional.empty();
            }
            if (element.tag() == 0xa0) {
                Der oid = Der.at(der, element.contentStart());
                return oid != null && oid.tag() == 0x06 && oid.end() <= element.end()
                        ? Optional.of(java.util.Arrays.copyOfRange(der, element.contentStart(), oid.end()))
                        : Optional.empty();
            }
            at = element.end();
        }
        return Optional.empty();
    }

    private static byte[] sequence(byte[]... parts) {
        return der(0x30, parts);
    }

    private static byte[] der(int tag, byte[]... parts) {
        ByteArrayOutputStream content = new ByteArrayOutputStream();
        for (byte[] part : parts) {
            content.writeBytes(part);
        }
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        out.write(tag);
        int length = content.size();
        if (length < 0x80) {
            out.write(length);
        } else {
            int bytes = (32 - Integer.numberOfLeadingZeros(length) + 7) / 8;
            out.write(0x80 | bytes);
            for (int i = bytes - 1; i >= 0; i--) {
                out.write(length >>> (8 * i));
            }
        }
        out.writeBytes(content.toByteArray());
        return out.toByteArray();
    }

    /** One DER element's tag and where its contents start and it ends; null past the bytes. */
    private record Der(int tag, int contentStart, int end) {

        static Der at(byte[] der, int offset) {
            if (offset + 2 > der.length) {
                return null;
            }
            int tag = der[offset] & 0xff;
            int first = der[offset + 1] & 0xff;
            int at = offset + 2;
            long length = first;
            if (first >= 0x80) {
                int bytes = first & 0x7f;
                if (bytes == 0 || bytes > 4 || at + bytes > der.length) {
                    return null;
                }
                length = 0;
                for (int i = 0; i < bytes; i++) {
                    length = (length << 8) | (der[at++] & 0xff);
                }
            }
            return at + length > der.length ? null : new Der(tag, at, (int) (at + length));
        }
    }
}
