package io.insika.router.server.tls;

import java.util.Arrays;
import java.util.List;
import java.util.Set;

import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLParameters;

/**
 * What a client may negotiate: TLS 1.3 and 1.2 only, and forward-secret AEAD ciphers only, in
 * the server's order (Mozilla's "intermediate" profile, without its finite-field DHE suites,
 * which cost a handshake much more and no current client needs).
 */
final class HandshakeParameters {

    /** The protocols, newest first. */
    static final List<String> PROTOCOLS = List.of("TLSv1.3", "TLSv1.2");

    /** The cipher suites, preferred first: TLS 1.3's, then TLS 1.2's ECDHE with AES-GCM or ChaCha20-Poly1305. */
    static final List<String> CIPHER_SUITES = List.of(
            "TLS_AES_128_GCM_SHA256",
            "TLS_AES_256_GCM_SHA384",
            "TLS_CHACHA20_POLY1305_SHA256",
            "TLS_ECDHE_ECDSA_WITH_AES_128_GCM_SHA256",
            "TLS_ECDHE_RSA_WITH_AES_128_GCM_SHA256",
            "TLS_ECDHE_ECDSA_WITH_AES_256_GCM_SHA384",
            "TLS_ECDHE_RSA_WITH_AES_256_GCM_SHA384",
            "TLS_ECDHE_ECDSA_WITH_CHACHA20_POLY1305_SHA256",
            "TLS_ECDHE_RSA_WITH_CHACHA20_POLY1305_SHA256");

    private HandshakeParameters() {
    }

    /**
     * @param context             the context whose supported protocols and suites bound ours
     * @param needsClientCertificate whether a client without a certificate the client CAs signed is refused
     * @return the parameters a server socket or engine is given
     */
    static SSLParameters server(SSLContext context, boolean needsClientCertificate) {
        SSLParameters supported = context.getSupportedSSLParameters();
        SSLParameters parameters = new SSLParameters();
        parameters.setProtocols(supportedOf(PROTOCOLS, supported.getProtocols()));
        parameters.setCipherSuites(supportedOf(CIPHER_SUITES, supported.getCipherSuites()));
        parameters.setUseCipherSuitesOrder(true);
        parameters.setNeedClientAuth(needsClientCertificate);
        return parameters;
    }

    private static String[] supportedOf(List<String> wanted, String[] supported) {
        Set<String> offered = Set.copyOf(Arrays.asList(supported));
        return wanted.stream().filter(offered::contains).toArray(String[]::new);
    }
}
