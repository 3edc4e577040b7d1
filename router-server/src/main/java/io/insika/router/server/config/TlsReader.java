package io.insika.router.server.config;

import java.nio.file.Path;
import java.util.Optional;

import io.insika.router.server.tls.TlsMaterial;
import io.insika.router.server.tls.TlsSettings;

/**
 * Reads {@code server.tls}: the certificate and key files (both or neither), the client CAs and
 * whether the admin port serves TLS too. The files are read and checked here, at start and at
 * every reload, so a listener is never handed a pair that cannot serve.
 */
final class TlsReader {

    private TlsReader() {
    }

    static Optional<TlsSettings> read(SettingReader reader) {
        String certificate = reader.read(Settings.TLS_CERTIFICATE).strip();
        String key = reader.read(Settings.TLS_PRIVATE_KEY).strip();
        String clientCa = reader.read(Settings.TLS_CLIENT_CA).strip();
        boolean admin = reader.read(Settings.TLS_ADMIN);
        if (certificate.isEmpty()) {
            String needsIt = "absent unless " + reader.label(Settings.TLS_CERTIFICATE) + " is set too";
            if (!key.isEmpty()) {
                reader.problem(reader.label(Settings.TLS_PRIVATE_KEY), key, needsIt);
            }
            if (!clientCa.isEmpty()) {
                reader.problem(reader.label(Settings.TLS_CLIENT_CA), clientCa, needsIt);
            }
            if (admin) {
                reader.problem(reader.label(Settings.TLS_ADMIN), "true", "false unless "
                        + reader.label(Settings.TLS_CERTIFICATE) + " is set: the admin port serves the proxy's certificate");
            }
            return Optional.empty();
        }
        if (key.isEmpty()) {
            reader.problem(reader.label(Settings.TLS_PRIVATE_KEY) + ": missing: the certificate's private key is needed"
                    + " with " + reader.label(Settings.TLS_CERTIFICATE));
            return Optional.empty();
        }
        try {
            TlsMaterial material = TlsMaterial.read(Path.of(certificate), Path.of(key),
                    clientCa.isEmpty() ? Optional.empty() : Optional.of(Path.of(clientCa)));
            return Optional.of(new TlsSettings(material, admin));
        } catch (TlsMaterial.InvalidFile e) {
            ConfigKey about = switch (e.part()) {
                case CERTIFICATE -> Settings.TLS_CERTIFICATE;
                case PRIVATE_KEY -> Settings.TLS_PRIVATE_KEY;
                case CLIENT_CA -> Settings.TLS_CLIENT_CA;
            };
            reader.problem(reader.label(about) + ": " + e.getMessage());
            return Optional.empty();
        }
    }
}
