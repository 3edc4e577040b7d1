package io.insika.router.server.config;

import java.nio.file.Path;
import java.util.List;
import java.util.Map;

import io.insika.router.server.testing.TestCertificates;
import io.insika.router.server.testing.TestCertificates.Authority;
import io.insika.router.server.testing.TestCertificates.KeyFormat;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import static org.hamcrest.MatcherAssert.assertThat;
import static org.hamcrest.Matchers.contains;
import static org.hamcrest.Matchers.is;
import static org.hamcrest.Matchers.startsWith;

/** {@code server.tls}: read and checked once at start, and what a reload may change of it. */
class TlsConfigTest {

    private static final Authority CA = TestCertificates.authority("config-ca");

    @TempDir
    Path dir;
    private ConfigFiles files;
    private Path certificate;
    private Path key;

    @BeforeEach
    void writeAPair() throws Exception {
        files = new ConfigFiles(dir);
        certificate = dir.resolve("tls.crt");
        key = dir.resolve("tls.key");
        TestCertificates.write(CA.server(), certificate, key, KeyFormat.TRADITIONAL);
    }

    @Test
    void withoutACertificateTheRouterServesPlainHttp() {
        assertThat(files.load("").server().tls().isPresent(), is(false));
    }

    @Test
    void theFilesAndTheAdminFlagComeFromTheYamlOrTheEnvironment() {
        RouterConfig fromYaml = files.load(tls(""));
        RouterConfig fromEnvironment = files.loadDefault(Map.of("INSIKA_ROUTER_TLS_CERTIFICATE", certificate.toString(),
                "INSIKA_ROUTER_TLS_PRIVATE_KEY", key.toString(), "INSIKA_ROUTER_TLS_ADMIN", "true"));

        assertThat(fromYaml.server().tls().orElseThrow().material().certificateFile(), is(certificate));
        assertThat(fromYaml.server().tls().orElseThrow().admin(), is(false));
        assertThat(fromEnvironment.server().tls().orElseThrow().material().privateKeyFile(), is(key));
        assertThat(fromEnvironment.server().tls().orElseThrow().admin(), is(true));
    }

    @Test
    void aKeyThatIsNotTheCertificatesStopsTheStartNamingTheFile() throws Exception {
        TestCertificates.writeKey(key, CA.server().key(), KeyFormat.PKCS8);

        List<String> problems = files.problems(tls(""));

        assertThat(problems, contains(startsWith("server.tls.private-key: [" + key + "] is not the private key of the"
                + " certificate in " + certificate)));
    }

    @Test
    void aMissingCertificateStopsTheStartNamingTheVariableThatNamedIt() {
        List<String> problems = files.problems("", Map.of("INSIKA_ROUTER_TLS_CERTIFICATE", dir.resolve("nope.crt")
                .toString(), "INSIKA_ROUTER_TLS_PRIVATE_KEY", key.toString()));

        assertThat(problems, contains("INSIKA_ROUTER_TLS_CERTIFICATE: [" + dir.resolve("nope.crt") + "] does not exist"));
    }

    @Test
    void aKeyOrClientCaOrAdminTlsWithoutACertificateIsAProblem() {
        List<String> problems = files.problems("server: { tls: { private-key: " + key + ", client-ca: " + certificate
                + ", admin: true } }");

        assertThat(problems, contains(
                "server.tls.private-key: [" + key + "] (expected: absent unless server.tls.certificate is set too)",
                "server.tls.client-ca: [" + certificate + "] (expected: absent unless server.tls.certificate is set too)",
                "server.tls.admin: [true] (expected: false unless server.tls.certificate is set: the admin port serves"
                        + " the proxy's certificate)"));
    }

    @Test
    void aCertificateWithoutItsKeyIsAProblem() {
        assertThat(files.problems("server: { tls: { certificate: " + certificate + " } }"),
                contains(startsWith("server.tls.private-key: missing")));
    }

    @Test
    void rotatedFilesAreReloadableButTurningTlsOnOrOffNeedsARestart() throws Exception {
        RouterConfig plain = files.load("");
        RouterConfig running = files.load(tls(""));
        TestCertificates.write(CA.server(), certificate, key, KeyFormat.TRADITIONAL);
        RouterConfig rotated = files.load(tls(""));

        ConfigChanges rotation = ConfigChanges.between(running, rotated);
        ConfigChanges on = ConfigChanges.between(plain, running);
        ConfigChanges off = ConfigChanges.between(running, plain);

        assertThat(names(rotation.changed()), contains("server.tls.certificate"));
        assertThat(rotation.reloadable(), is(true));
        assertThat(names(on.restartOnly()), contains("server.tls.certificate", "server.tls.private-key"));
        assertThat(names(off.restartOnly()), contains("server.tls.certificate", "server.tls.private-key"));
    }

    @Test
    void askingForClientCertificatesOrNotNeedsARestartButNewClientCasReload() throws Exception {
        Path cas = dir.resolve("clients.crt");
        TestCertificates.writePem(cas, CA.certificate());
        RouterConfig running = files.load(tls(""));
        RouterConfig mutual = files.load(tls(", client-ca: " + cas));
        TestCertificates.writePem(cas, CA.certificate(), TestCertificates.authority("more").certificate());
        RouterConfig moreCas = files.load(tls(", client-ca: " + cas));

        assertThat(names(ConfigChanges.between(running, mutual).restartOnly()), contains("server.tls.client-ca"));
        assertThat(ConfigChanges.between(mutual, moreCas).reloadable(), is(true));
        assertThat(names(ConfigChanges.between(mutual, moreCas).changed()), contains("server.tls.client-ca"));
    }

    private String tls(String more) {
        return "server: { tls: { certificate: " + certificate + ", private-key: " + key + more + " } }";
    }

    private static List<String> names(List<ConfigKey> keys) {
        return keys.stream().map(ConfigKey::key).toList();
    }
}
