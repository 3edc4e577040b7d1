package io.insika.router.server.tls;

import java.security.GeneralSecurityException;
import java.util.Objects;

import javax.net.ssl.KeyManager;
import javax.net.ssl.SSLContext;
import javax.net.ssl.TrustManager;

import io.helidon.common.tls.Tls;

/**
 * TLS as the proxy listener (and the admin listener, when asked) serve it: one SSL context whose
 * key and client-CA managers a reload swaps, so new handshakes take the new certificate while
 * open connections keep theirs, with no listener restarted. The admin port never asks for a
 * client certificate: the orchestrator's probes and scrapers have none.
 */
public final class ListenerTls {

    private final ReloadableKeyManager keys;
    private final ReloadableTrustManager clientCas; // null without client-ca
    private final Tls proxy;
    private final Tls admin;
    private volatile TlsMaterial running;

    private ListenerTls(TlsMaterial material, ReloadableKeyManager keys, ReloadableTrustManager clientCas,
                        SSLContext context) {
        this.running = material;
        this.keys = keys;
        this.clientCas = clientCas;
        this.proxy = tls(context, material.asksClientCertificates());
        this.admin = tls(context, false);
    }

    /**
     * @param material the checked certificate, key and client CAs
     * @return TLS for the listeners, serving that material until {@link #reload}
     */
    public static ListenerTls of(TlsMaterial material) {
        ReloadableKeyManager keys = new ReloadableKeyManager(material.keyManager());
        ReloadableTrustManager clientCas = material.clientCas().map(ReloadableTrustManager::new).orElse(null);
        try {
            SSLContext context = SSLContext.getInstance("TLS");
            context.init(new KeyManager[] {keys}, clientCas == null ? null : new TrustManager[] {clientCas}, null);
            return new ListenerTls(material, keys, clientCas, context);
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("this JVM cannot serve TLS", e);
        }
    }

    private static Tls tls(SSLContext context, boolean needsClientCertificate) {
        var parameters = HandshakeParameters.server(context, needsClientCertificate);
        return Tls.builder()
                .sslContext(new ParameterizedSslContext(context, parameters))
                .sslParameters(parameters)
                .build();
    }

    /** What the proxy listener serves. */
    public Tls proxy() {
        return proxy;
    }

    /** What the admin listener serves: the same certificate, no client certificate asked for. */
    public Tls admin() {
        return admin;
    }

    /**
     * New handshakes use this material from now on; open connections keep what they began with.
     *
     * @param next material read and checked as at start, asking for client certificates exactly
     *             when the running one does (the handshake's parameters are made once)
     */
    public void reload(TlsMaterial next) {
        Objects.requireNonNull(next, "next");
        if (next.asksClientCertificates() != running.asksClientCertificates()) {
            throw new IllegalArgumentException("only a restart starts or stops asking for client certificates");
        }
        keys.swap(next.keyManager());
        if (clientCas != null) {
            clientCas.swap(next.clientCas().orElseThrow());
        }
        running = next;
    }

    /** The material new handshakes use. */
    public TlsMaterial running() {
        return running;
    }
}
