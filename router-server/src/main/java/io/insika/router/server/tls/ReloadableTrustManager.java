package io.insika.router.server.tls;

import java.net.Socket;
import java.security.cert.CertificateException;
import java.security.cert.X509Certificate;

import javax.net.ssl.SSLEngine;
import javax.net.ssl.X509ExtendedTrustManager;

/** The client CAs a handshake checks a client's certificate against: swapped whole by a reload. */
final class ReloadableTrustManager extends X509ExtendedTrustManager {

    private volatile X509ExtendedTrustManager current;

    ReloadableTrustManager(X509ExtendedTrustManager current) {
        this.current = current;
    }

    void swap(X509ExtendedTrustManager next) {
        current = next;
    }

    @Override
    public void checkClientTrusted(X509Certificate[] chain, String authType, Socket socket) throws CertificateException {
        current.checkClientTrusted(chain, authType, socket);
    }

    @Override
    public void checkClientTrusted(X509Certificate[] chain, String authType, SSLEngine engine)
            throws CertificateException {
        current.checkClientTrusted(chain, authType, engine);
    }

    @Override
    public void checkClientTrusted(X509Certificate[] chain, String authType) throws CertificateException {
        current.checkClientTrusted(chain, authType);
    }

    // The router is never a TLS client through this manager: nothing is trusted that way
    @Override
    public void checkServerTrusted(X509Certificate[] chain, String authType, Socket socket) throws CertificateException {
        throw new CertificateException("the client CAs check clients only");
    }

    @Override
    public void checkServerTrusted(X509Certificate[] chain, String authType, SSLEngine engine)
            throws CertificateException {
        throw new CertificateException("the client CAs check clients only");
    }

    @Override
    public void checkServerTrusted(X509Certificate[] chain, String authType) throws CertificateException {
        throw new CertificateException("the client CAs check clients only");
    }

    @Override
    public X509Certificate[] getAcceptedIssuers() {
        return current.getAcceptedIssuers();
    }
}
