package io.insika.router.server.tls;

import java.math.BigInteger;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Optional;

import io.insika.router.server.testing.TestCertificates;
import io.insika.router.server.testing.TestCertificates.Authority;
import io.insika.router.server.testing.TestCertificates.Issued;
import io.insika.router.server.testing.TestCertificates.KeyFormat;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import static org.hamcrest.MatcherAssert.assertThat;
import static org.hamcrest.Matchers.containsString;
import static org.hamcrest.Matchers.is;
import static org.hamcrest.Matchers.startsWith;
import static org.junit.jupiter.api.Assertions.assertThrows;

/** Reading the certificate, key and client-CA files, and refusing a pair that cannot serve. */
class TlsMaterialTest {

    private static final Authority CA = TestCertificates.authority("test-ca");

    @TempDir
    Path dir;

    @ParameterizedTest(name = "{0} {1}")
    @CsvSource({"RSA, PKCS8", "RSA, TRADITIONAL", "EC, PKCS8", "EC, TRADITIONAL", "Ed25519, PKCS8"})
    void everyKeyEncodingCertificateToolsWriteIsRead(String algorithm, KeyFormat format) throws Exception {
        Issued server = CA.server(BigInteger.valueOf(0xabc), algorithm);
        TestCertificates.write(server, dir.resolve("tls.crt"), dir.resolve("tls.key"), format);
        String header = Files.readString(dir.resolve("tls.key")).lines().findFirst().orElseThrow();
        assertThat("written as asked", header.equals("-----BEGIN PRIVATE KEY-----"), is(format == KeyFormat.PKCS8));

        TlsMaterial material = TlsMaterial.read(dir.resolve("tls.crt"), dir.resolve("tls.key"), Optional.empty());

        assertThat(material.chain().getFirst().getSerialNumber(), is(BigInteger.valueOf(0xabc)));
        assertThat(material.certificateText(), startsWith(dir.resolve("tls.crt") + " (serial abc, until "));
        assertThat(material.asksClientCertificates(), is(false));
    }

    @Test
    void aCertificateAndItsKeyMayShareOneFile() throws Exception {
        Issued server = CA.server();
        Path both = dir.resolve("both.pem");
        TestCertificates.write(server, dir.resolve("tls.crt"), dir.resolve("tls.key"), KeyFormat.PKCS8);
        Files.writeString(both, Files.readString(dir.resolve("tls.key")) + Files.readString(dir.resolve("tls.crt")));

        TlsMaterial material = TlsMaterial.read(both, both, Optional.empty());

        assertThat(material.chain().getFirst().getSerialNumber(), is(server.serial()));
    }

    @Test
    void aKeyThatIsNotTheCertificatesIsRefusedNamingTheKeyFile() throws Exception {
        TestCertificates.writePem(dir.resolve("tls.crt"), CA.server().certificate());
        TestCertificates.writeKey(dir.resolve("tls.key"), CA.server().key(), KeyFormat.PKCS8);

        TlsMaterial.InvalidFile refused = assertThrows(TlsMaterial.InvalidFile.class,
                () -> TlsMaterial.read(dir.resolve("tls.crt"), dir.resolve("tls.key"), Optional.empty()));

        assertThat(refused.part(), is(TlsMaterial.Part.PRIVATE_KEY));
        assertThat(refused.getMessage(), startsWith("[" + dir.resolve("tls.key") + "] is not the private key of the"
                + " certificate in " + dir.resolve("tls.crt")));
    }

    @Test
    void theServersOwnCertificateMustComeFirstInTheChain() throws Exception {
        Issued server = CA.server();
        TestCertificates.writePem(dir.resolve("tls.crt"), CA.certificate(), server.certificate());
        TestCertificates.writeKey(dir.resolve("tls.key"), server.key(), KeyFormat.PKCS8);

        TlsMaterial.InvalidFile refused = assertThrows(TlsMaterial.InvalidFile.class,
                () -> TlsMaterial.read(dir.resolve("tls.crt"), dir.resolve("tls.key"), Optional.empty()));

        assertThat(refused.getMessage(), containsString("the server's own certificate comes first"));
    }

    @Test
    void aMissingFileIsRefusedNamingIt() throws Exception {
        TestCertificates.write(CA.server(), dir.resolve("tls.crt"), dir.resolve("tls.key"), KeyFormat.PKCS8);

        TlsMaterial.InvalidFile refused = assertThrows(TlsMaterial.InvalidFile.class, () -> TlsMaterial.read(
                dir.resolve("tls.crt"), dir.resolve("tls.key"), Optional.of(dir.resolve("ca.crt"))));

        assertThat(refused.part(), is(TlsMaterial.Part.CLIENT_CA));
        assertThat(refused.getMessage(), is("[" + dir.resolve("ca.crt") + "] does not exist"));
    }

    @Test
    void aFileWithoutACertificateIsRefusedSayingWhatWasExpected() throws Exception {
        TestCertificates.write(CA.server(), dir.resolve("tls.crt"), dir.resolve("tls.key"), KeyFormat.PKCS8);

        TlsMaterial.InvalidFile refused = assertThrows(TlsMaterial.InvalidFile.class,
                () -> TlsMaterial.read(dir.resolve("tls.key"), dir.resolve("tls.key"), Optional.empty()));

        assertThat(refused.part(), is(TlsMaterial.Part.CERTIFICATE));
        assertThat(refused.getMessage(), containsString("holds no PEM certificate"));
    }

    @Test
    void anEncryptedKeyIsRefusedSayingHowToWriteOneTheRouterReads() throws Exception {
        TestCertificates.writePem(dir.resolve("tls.crt"), CA.server().certificate());
        Files.writeString(dir.resolve("tls.key"), "-----BEGIN ENCRYPTED PRIVATE KEY-----\nMIIBvTBXBgkqhkiG9w0BBQ0w\n"
                + "-----END ENCRYPTED PRIVATE KEY-----\n");

        TlsMaterial.InvalidFile refused = assertThrows(TlsMaterial.InvalidFile.class,
                () -> TlsMaterial.read(dir.resolve("tls.crt"), dir.resolve("tls.key"), Optional.empty()));

        assertThat(refused.getMessage(), containsString("openssl pkcs8 -topk8 -nocrypt"));
    }

    @Test
    void clientCasMakeTheListenerAskForClientCertificates() throws Exception {
        TestCertificates.write(CA.server(), dir.resolve("tls.crt"), dir.resolve("tls.key"), KeyFormat.TRADITIONAL);
        TestCertificates.writePem(dir.resolve("clients.crt"), TestCertificates.authority("clients").certificate(),
                CA.certificate());

        TlsMaterial material = TlsMaterial.read(dir.resolve("tls.crt"), dir.resolve("tls.key"),
                Optional.of(dir.resolve("clients.crt")));

        assertThat(material.asksClientCertificates(), is(true));
        assertThat(material.clientCaText().orElseThrow(), containsString("(2 certificate(s), sha256 "));
        assertThat(material.digests().keySet().size(), is(3));
    }
}
