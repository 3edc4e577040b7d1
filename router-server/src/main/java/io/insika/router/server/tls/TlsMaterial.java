package io.insika.router.server.tls;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.security.KeyStore;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.security.PrivateKey;
import java.security.PublicKey;
import java.security.SecureRandom;
import java.security.Signature;
import java.security.cert.Certificate;
import java.security.cert.CertificateException;
import java.security.cert.CertificateFactory;
import java.security.cert.X509Certificate;
import java.security.spec.MGF1ParameterSpec;
import java.security.spec.PSSParameterSpec;
import java.time.format.DateTimeFormatter;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

import javax.net.ssl.KeyManagerFactory;
import javax.net.ssl.TrustManagerFactory;
import javax.net.ssl.X509ExtendedKeyManager;
import javax.net.ssl.X509ExtendedTrustManager;

/**
 * The certificate chain, its private key and the client CAs, read from their PEM files and
 * checked whole: every file readable, the key the certificate's own. What a listener serves,
 * and what a reload swaps in: a new pair that fails a check never reaches a listener.
 */
public final class TlsMaterial {

    /** Which file a problem is in. */
    public enum Part { CERTIFICATE, PRIVATE_KEY, CLIENT_CA }

    /** A file that cannot serve, and which one it is. */
    public static final class InvalidFile extends IllegalArgumentException {

        private final Part part;

        InvalidFile(Part part, Path file, String problem) {
            super("[" + file + "] " + problem);
            this.part = part;
        }

        public Part part() {
            return part;
        }
    }

    // the in-memory key store's: it never leaves the process
    private static final char[] STORE_PASSWORD = "in-memory".toCharArray();
    private static final DateTimeFormatter DAY = DateTimeFormatter.ISO_LOCAL_DATE.withZone(ZoneOffset.UTC);

    private final Path certificateFile;
    private final Path privateKeyFile;
    private final Optional<Path> clientCaFile;
    private final List<X509Certificate> chain;
    private final X509ExtendedKeyManager keyManager;
    private final Optional<X509ExtendedTrustManager> clientCas;
    private final Map<Path, String> digests;
    private final String certificateText;
    private final Optional<String> clientCaText;

    private TlsMaterial(Path certificateFile, Path privateKeyFile, Optional<Path> clientCaFile,
                        List<X509Certificate> chain, X509ExtendedKeyManager keyManager,
                        Optional<X509ExtendedTrustManager> clientCas, Map<Path, String> digests,
                        Optional<String> clientCaText) {
        this.certificateFile = certificateFile;
        this.privateKeyFile = privateKeyFile;
        this.clientCaFile = clientCaFile;
        this.chain = List.copyOf(chain);
        this.keyManager = keyManager;
        this.clientCas = clientCas;
        this.digests = java.util.Collections.unmodifiableMap(new LinkedHashMap<>(digests));
        X509Certificate own = chain.getFirst();
        this.certificateText = certificateFile + " (serial " + own.getSerialNumber().toString(16) + ", until "
                + DAY.format(own.getNotAfter().toInstant()) + ", sha256 " + digests.get(certificateFile).substring(0, 12)
                + ")";
        this.clientCaText = clientCaText;
    }

    /**
     * Reads and checks the files.
     *
     * @param certificate the server's certificate, then the intermediates a client needs, in PEM
     * @param privateKey  the certificate's private key in PEM (PKCS#8, PKCS#1 or SEC1, unencrypted);
     *                    may be the certificate's file
     * @param clientCa    the CAs a client certificate must be signed by, in PEM, if clients must
     *                    present one
     * @return the checked material
     * @throws InvalidFile naming the file and what is wrong with it
     */
    public static TlsMaterial read(Path certificate, Path privateKey, Optional<Path> clientCa) {
        Map<Path, String> digests = new LinkedHashMap<>();
        List<X509Certificate> chain = certificates(Part.CERTIFICATE, certificate, digests);
        PrivateKey key;
        try {
            key = PemPrivateKey.read(PemBlocks.of(text(Part.PRIVATE_KEY, privateKey, digests)));
        } catch (InvalidFile e) {
            throw e;
        } catch (IllegalArgumentException e) {
            throw new InvalidFile(Part.PRIVATE_KEY, privateKey, e.getMessage());
        }
        if (!matches(key, chain.getFirst().getPublicKey())) {
            boolean laterOne = chain.stream().skip(1).anyMatch(c -> matches(key, c.getPublicKey()));
            throw new InvalidFile(Part.PRIVATE_KEY, privateKey, laterOne
                    ? "is the key of a later certificate in " + certificate + ": the server's own certificate comes first"
                    : "is not the private key of the certificate in " + certificate + " (serial "
                            + chain.getFirst().getSerialNumber().toString(16) + ")");
        }
        Optional<X509ExtendedTrustManager> trust = Optional.empty();
        Optional<String> caText = Optional.empty();
        if (clientCa.isPresent()) {
            List<X509Certificate> cas = certificates(Part.CLIENT_CA, clientCa.get(), digests);
            trust = Optional.of(trustManager(cas, clientCa.get()));
            caText = Optional.of(clientCa.get() + " (" + cas.size() + " certificate(s), sha256 "
                    + digests.get(clientCa.get()).substring(0, 12) + ")");
        }
        return new TlsMaterial(certificate, privateKey, clientCa, chain, keyManager(key, chain, privateKey), trust,
                digests, caText);
    }

    public Path certificateFile() {
        return certificateFile;
    }

    public Path privateKeyFile() {
        return privateKeyFile;
    }

    public Optional<Path> clientCaFile() {
        return clientCaFile;
    }

    /** The server's certificate first, then the intermediates it is sent with. */
    public List<X509Certificate> chain() {
        return chain;
    }

    /** Whether a client must present a certificate signed by the client CAs. */
    public boolean asksClientCertificates() {
        return clientCas.isPresent();
    }

    /** Every file read, with the SHA-256 of the bytes read, in hex: what a file watch compares. */
    public Map<Path, String> digests() {
        return digests;
    }

    /** How {@code check} and a reload's log show the certificate: its file, serial, expiry and digest. */
    public String certificateText() {
        return certificateText;
    }

    /** How {@code check} and a reload's log show the client CAs, if any. */
    public Optional<String> clientCaText() {
        return clientCaText;
    }

    X509ExtendedKeyManager keyManager() {
        return keyManager;
    }

    Optional<X509ExtendedTrustManager> clientCas() {
        return clientCas;
    }

    @Override
    public String toString() {
        return "TLS " + certificateText;
    }

    private static List<X509Certificate> certificates(Part part, Path file, Map<Path, String> digests) {
        List<X509Certificate> certificates = new ArrayList<>();
        try {
            CertificateFactory factory = CertificateFactory.getInstance("X.509");
            for (PemBlocks.Block block : PemBlocks.of(text(part, file, digests))) {
                if (block.type().equals("CERTIFICATE")) {
                    certificates.add((X509Certificate) factory.generateCertificate(new ByteArrayInputStream(block.der())));
                }
            }
        } catch (CertificateException | IllegalArgumentException e) {
            if (e instanceof InvalidFile invalid) {
                throw invalid;
            }
            throw new InvalidFile(part, file, "holds a certificate that cannot be read: " + e.getMessage());
        }
        if (certificates.isEmpty()) {
            throw new InvalidFile(part, file, "holds no PEM certificate (expected: -----BEGIN CERTIFICATE----- blocks)");
        }
        return certificates;
    }

    private static String text(Part part, Path file, Map<Path, String> digests) {
        byte[] bytes;
        try {
            bytes = Files.readAllBytes(file);
        } catch (NoSuchFileException e) {
            throw new InvalidFile(part, file, "does not exist");
        } catch (IOException e) {
            throw new InvalidFile(part, file, "cannot be read: " + e);
        }
        digests.put(file, sha256(bytes));
        return new String(bytes, StandardCharsets.ISO_8859_1);
    }

    /** Whether the key signs what the public key verifies: the certificate is the key's. */
    static boolean matches(PrivateKey key, PublicKey certified) {
        if (!key.getAlgorithm().equals(certified.getAlgorithm())) {
            return false;
        }
        try {
            byte[] challenge = new byte[32];
            new SecureRandom().nextBytes(challenge);
            Signature signer = signature(key.getAlgorithm());
            signer.initSign(key);
            signer.update(challenge);
            byte[] signed = signer.sign();
            Signature verifier = signature(key.getAlgorithm());
            verifier.initVerify(certified);
            verifier.update(challenge);
            return verifier.verify(signed);
        } catch (GeneralSecurityException e) {
            return false;
        }
    }

    private static Signature signature(String keyAlgorithm) throws GeneralSecurityException {
        return switch (keyAlgorithm) {
            case "RSA" -> Signature.getInstance("SHA256withRSA");
            case "EC" -> Signature.getInstance("SHA256withECDSA");
            case "RSASSA-PSS" -> {
                Signature pss = Signature.getInstance("RSASSA-PSS");
                pss.setParameter(new PSSParameterSpec("SHA-256", "MGF1", MGF1ParameterSpec.SHA256, 32, 1));
                yield pss;
            }
            default -> Signature.getInstance(keyAlgorithm); // EdDSA, Ed25519, Ed448
        };
    }

    private static X509ExtendedKeyManager keyManager(PrivateKey key, List<X509Certificate> chain, Path file) {
        try {
            KeyStore store = KeyStore.getInstance("PKCS12");
            store.load(null, null);
            store.setKeyEntry("router", key, STORE_PASSWORD, chain.toArray(Certificate[]::new));
            KeyManagerFactory factory = KeyManagerFactory.getInstance(KeyManagerFactory.getDefaultAlgorithm());
            factory.init(store, STORE_PASSWORD);
            return (X509ExtendedKeyManager) factory.getKeyManagers()[0];
        } catch (GeneralSecurityException | IOException e) {
            throw new InvalidFile(Part.PRIVATE_KEY, file, "cannot serve TLS: " + e.getMessage());
        }
    }

    private static X509ExtendedTrustManager trustManager(List<X509Certificate> cas, Path file) {
        try {
            KeyStore store = KeyStore.getInstance("PKCS12");
            store.load(null, null);
            for (int i = 0; i < cas.size(); i++) {
                store.setCertificateEntry("ca-" + i, cas.get(i));
            }
            TrustManagerFactory factory = TrustManagerFactory.getInstance("PKIX");
            factory.init(store);
            return (X509ExtendedTrustManager) factory.getTrustManagers()[0];
        } catch (GeneralSecurityException | IOException e) {
            throw new InvalidFile(Part.CLIENT_CA, file, "cannot check client certificates: " + e.getMessage());
        }
    }

    private static String sha256(byte[] bytes) {
        try {
            return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(bytes));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("every JVM has SHA-256", e);
        }
    }
}
