package io.insika.router.server.tls;

import java.util.Objects;

/**
 * TLS on the listeners: {@code server.tls}.
 *
 * @param material the certificate, key and client CAs, read and checked
 * @param admin    whether the admin port serves TLS too (with the same certificate, never asking
 *                 for a client's)
 */
public record TlsSettings(TlsMaterial material, boolean admin) {

    public TlsSettings {
        Objects.requireNonNull(material, "material");
    }
}
