package io.insika.router.server.testing;

import java.io.IOException;
import java.io.StringWriter;
import java.io.UncheckedIOException;
import java.math.BigInteger;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.security.GeneralSecurityException;
import java.security.KeyPair;
import java.security.KeyPairGenerator;
import java.security.KeyStore;
import java.security.PrivateKey;
import java.security.cert.Certificate;
import java.security.cert.X509Certificate;
import java.security.interfaces.ECPrivateKey;
import java.security.spec.ECGenParameterSpec;
import java.time.Duration;
import java.time.Instant;
import java.util.Date;
import java.util.concurrent.atomic.AtomicLong;

import javax.net.ssl.KeyManagerFactory;
import javax.net.ssl.SSLContext;
import javax.net.ssl.TrustManagerFactory;

import org.bouncycastle.asn1.pkcs.PrivateKeyInfo;
import org.bouncycastle.asn1.x500.X500Name;
import org.bouncycastle.asn1.x509.BasicConstraints;
import org.bouncycastle.asn1.x509.ExtendedKeyUsage;
import org.bouncycastle.asn1.x509.Extension;
import org.bouncycastle.asn1.x509.GeneralName;
import org.bouncycastle.asn1.x509.GeneralNames;
import org.bouncycastle.asn1.x509.KeyPurposeId;
import org.bouncycastle.asn1.x509.KeyUsage;
import org.bouncycastle.cert.X509v3CertificateBuilder;
import org.bouncycastle.cert.jcajce.JcaX509CertificateConverter;
import org.bouncycastle.cert.jcajce.JcaX509v3CertificateBuilder;
import org.bouncycastle.openssl.jcajce.JcaPEMWriter;
import org.bouncycastle.openssl.jcajce.JcaPKCS8Generator;
import org.bouncycastle.operator.OperatorCreationException;
import org.bouncycastle.operator.jcajce.JcaContentSignerBuilder;
import org.bouncycastle.util.io.pem.PemObject;

/**
 * Certificates made for one test run: a CA, server certificates it signs for {@code 127.0.0.1}
 * and {@code localhost} with the serial a test asks for, client certificates, their PEM files as
 * certificate tools write them, and client SSL contexts that trust the CA.
 */
public final class TestCertificates {

    /** How a private key is written: PKCS#8 ({@code PRIVATE KEY}), or PKCS#1 / SEC1 as cert-manager does. */
    public enum KeyFormat { PKCS8, TRADITIONAL }

    private static final AtomicLong SERIALS = new AtomicLong(0x1000);

    /** A certificate and its private key. */
    public record Issued(X509Certificate certificate, PrivateKey key) {

        public BigInteger serial() {
            return certificate.getSerialNumber();
        }
    }

    /** A certificate authority that signs with its key. */
    public record Authority(Issued self) {

        public X509Certificate certificate() {
            return self.certificate();
        }

        /** A server certificate for 127.0.0.1 and localhost, with an EC key. */
        public Issued server() {
            return server(BigInteger.valueOf(SERIALS.incrementAndGet()), "EC");
        }

        /**
         * @param serial    its serial number
         * @param algorithm {@code EC} (P-256), {@code RSA} (2048 bits) or {@code Ed25519}
         */
        public Issued server(BigInteger serial, String algorithm) {
            KeyPair keys = keys(algorithm);
            return sign(serial, "CN=router", keys, builder -> {
                builder.addExtension(Extension.subjectAlternativeName, false, new GeneralNames(new GeneralName[] {
                        new GeneralName(GeneralName.iPAddress, "127.0.0.1"),
                        new GeneralName(GeneralName.dNSName, "localhost")}));
                builder.addExtension(Extension.extendedKeyUsage, false, new ExtendedKeyUsage(KeyPurposeId.id_kp_serverAuth));
            });
        }

        /** A client certificate for this common name. */
        public Issued client(String commonName) {
            return sign(BigInteger.valueOf(SERIALS.incrementAndGet()), "CN=" + commonName, keys("EC"), builder ->
                    builder.addExtension(Extension.extendedKeyUsage, false,
                            new ExtendedKeyUsage(KeyPurposeId.id_kp_clientAuth)));
        }

        private Issued sign(BigInteger serial, String subject, KeyPair keys, Extensions extensions) {
            try {
                X509v3CertificateBuilder builder = new JcaX509v3CertificateBuilder(self.certificate(), serial,
                        Date.from(Instant.now().minus(Duration.ofHours(1))),
                        Date.from(Instant.now().plus(Duration.ofDays(2))), new X500Name(subject), keys.getPublic());
                extensions.add(builder);
                return new Issued(TestCertificates.certificate(builder, self.key()), keys.getPrivate());
            } catch (IOException e) {
                throw new IllegalStateException(e);
            }
        }
    }

    private interface Extensions {
        void add(X509v3CertificateBuilder builder) throws IOException;
    }

    private TestCertificates() {
    }

    /** A new self-signed CA with an EC key. */
    public static Authority authority(String name) {
        KeyPair keys = keys("EC");
        X500Name subject = new X500Name("CN=" + name);
        try {
            X509v3CertificateBuilder builder = new JcaX509v3CertificateBuilder(subject,
                    BigInteger.valueOf(SERIALS.incrementAndGet()), Date.from(Instant.now().minus(Duration.ofHours(1))),
                    Date.from(Instant.now().plus(Duration.ofDays(2))), subject, keys.getPublic());
            builder.addExtension(Extension.basicConstraints, true, new BasicConstraints(true));
            builder.addExtension(Extension.keyUsage, true, new KeyUsage(KeyUsage.keyCertSign | KeyUsage.cRLSign));
            return new Authority(new Issued(certificate(builder, keys.getPrivate()), keys.getPrivate()));
        } catch (IOException e) {
            throw new IllegalStateException(e);
        }
    }

    /** Writes the certificate, then its key, each to its file. */
    public static void write(Issued issued, Path certificate, Path key, KeyFormat format) throws IOException {
        writePem(certificate, issued.certificate());
        writeKey(key, issued.key(), format);
    }

    /** Writes PEM certificates to a file, replacing it whole (as a Secret's update does). */
    public static void writePem(Path file, X509Certificate... certificates) throws IOException {
        replace(file, pem(certificates));
    }

    /** Writes a PEM private key to a file, replacing it whole. */
    public static void writeKey(Path file, PrivateKey key, KeyFormat format) throws IOException {
        replace(file, pem(key, format));
    }

    /** Certificates as PEM text. */
    public static String pem(X509Certificate... certificates) {
        return pem(writer -> {
            for (X509Certificate certificate : certificates) {
                writer.writeObject(certificate);
            }
        });
    }

    /** A private key as PEM text. */
    public static String pem(PrivateKey key, KeyFormat format) {
        return pem(writer -> {
            if (format == KeyFormat.PKCS8) {
                writer.writeObject(new JcaPKCS8Generator(key, null));
            } else if (key instanceof ECPrivateKey ec) {
                // SEC1 naming its curve, as openssl and Go write it (Bouncy Castle leaves the curve out)
                PrivateKeyInfo info = PrivateKeyInfo.getInstance(key.getEncoded());
                writer.writeObject(new PemObject("EC PRIVATE KEY", new org.bouncycastle.asn1.sec.ECPrivateKey(
                        ec.getParams().getOrder().bitLength(), ec.getS(),
                        info.getPrivateKeyAlgorithm().getParameters()).getEncoded()));
            } else {
                writer.writeObject(key);
            }
        });
    }

    private interface PemContent {
        void write(JcaPEMWriter writer) throws IOException;
    }

    private static String pem(PemContent content) {
        StringWriter text = new StringWriter();
        try (JcaPEMWriter writer = new JcaPEMWriter(text)) {
            content.write(writer);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return text.toString();
    }

    // written beside, then moved over: a reader never sees half a file
    private static void replace(Path file, String text) throws IOException {
        Path temporary = file.resolveSibling(file.getFileName() + ".new");
        Files.writeString(temporary, text);
        Files.move(temporary, file, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
    }

    /** A client context trusting this CA, presenting no certificate. */
    public static SSLContext trusting(Authority authority) {
        return context(authority, null);
    }

    /** A client context trusting this CA and presenting this client certificate. */
    public static SSLContext trusting(Authority authority, Issued client) {
        return context(authority, client);
    }

    private static SSLContext context(Authority authority, Issued client) {
        try {
            KeyStore trust = KeyStore.getInstance("PKCS12");
            trust.load(null, null);
            trust.setCertificateEntry("ca", authority.certificate());
            TrustManagerFactory trustFactory = TrustManagerFactory.getInstance("PKIX");
            trustFactory.init(trust);
            KeyManagerFactory keyFactory = null;
            if (client != null) {
                KeyStore keys = KeyStore.getInstance("PKCS12");
                keys.load(null, null);
                keys.setKeyEntry("client", client.key(), "test".toCharArray(), new Certificate[] {client.certificate()});
                keyFactory = KeyManagerFactory.getInstance(KeyManagerFactory.getDefaultAlgorithm());
                keyFactory.init(keys, "test".toCharArray());
            }
            SSLContext context = SSLContext.getInstance("TLS");
            context.init(keyFactory == null ? null : keyFactory.getKeyManagers(), trustFactory.getTrustManagers(), null);
            return context;
        } catch (GeneralSecurityException | IOException e) {
            throw new IllegalStateException(e);
        }
    }

    private static KeyPair keys(String algorithm) {
        try {
            KeyPairGenerator generator = KeyPairGenerator.getInstance(algorithm);
            switch (algorithm) {
                case "EC" -> generator.initialize(new ECGenParameterSpec("secp256r1"));
                case "RSA" -> generator.initialize(2048);
                default -> { }
            }
            return generator.generateKeyPair();
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException(e);
        }
    }

    private static X509Certificate certificate(X509v3CertificateBuilder builder, PrivateKey signer) {
        String algorithm = switch (signer.getAlgorithm()) {
            case "EC" -> "SHA256withECDSA";
            case "RSA" -> "SHA256withRSA";
            default -> signer.getAlgorithm();
        };
        try {
            return new JcaX509CertificateConverter().getCertificate(builder.build(
                    new JcaContentSignerBuilder(algorithm).build(signer)));
        } catch (OperatorCreationException | GeneralSecurityException e) {
            throw new IllegalStateException(e);
        }
    }
}
