package io.insika.router.server.tls;

import java.io.IOException;
import java.io.InputStream;
import java.net.InetAddress;
import java.net.Socket;
import java.security.KeyManagementException;
import java.security.SecureRandom;

import javax.net.ssl.KeyManager;
import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLContextSpi;
import javax.net.ssl.SSLEngine;
import javax.net.ssl.SSLParameters;
import javax.net.ssl.SSLServerSocketFactory;
import javax.net.ssl.SSLSessionContext;
import javax.net.ssl.SSLSocket;
import javax.net.ssl.SSLSocketFactory;
import javax.net.ssl.TrustManager;

/**
 * A context whose every socket and engine starts with the given parameters. Helidon 4.5.0's
 * listener over plain sockets ({@code useNio(false)}, ConnectionHandler.createByteSocket) wraps
 * each accepted socket with the context's socket factory and never applies its {@code Tls}'s
 * parameters: without this, the JDK's defaults would choose protocols and ciphers, and a client
 * certificate would never be asked for.
 */
final class ParameterizedSslContext extends SSLContext {

    ParameterizedSslContext(SSLContext context, SSLParameters parameters) {
        super(new Spi(context, parameters), context.getProvider(), context.getProtocol());
    }

    private static final class Spi extends SSLContextSpi {

        private final SSLContext context;
        private final SSLParameters parameters;

        Spi(SSLContext context, SSLParameters parameters) {
            this.context = context;
            this.parameters = parameters;
        }

        @Override
        protected void engineInit(KeyManager[] km, TrustManager[] tm, SecureRandom sr) throws KeyManagementException {
            throw new KeyManagementException("initialised once, from the router's TLS files");
        }

        @Override
        protected SSLSocketFactory engineGetSocketFactory() {
            return new SocketFactory(context.getSocketFactory(), parameters);
        }

        // Helidon's Tls takes it when built, but its listener accepts on a channel and wraps
        // accepted sockets: no server socket is ever made from it
        @Override
        protected SSLServerSocketFactory engineGetServerSocketFactory() {
            return context.getServerSocketFactory();
        }

        @Override
        protected SSLEngine engineCreateSSLEngine() {
            SSLEngine engine = context.createSSLEngine();
            engine.setSSLParameters(parameters);
            return engine;
        }

        @Override
        protected SSLEngine engineCreateSSLEngine(String host, int port) {
            SSLEngine engine = context.createSSLEngine(host, port);
            engine.setSSLParameters(parameters);
            return engine;
        }

        @Override
        protected SSLSessionContext engineGetServerSessionContext() {
            return context.getServerSessionContext();
        }

        @Override
        protected SSLSessionContext engineGetClientSessionContext() {
            return context.getClientSessionContext();
        }

        @Override
        protected SSLParameters engineGetDefaultSSLParameters() {
            return parameters;
        }

        @Override
        protected SSLParameters engineGetSupportedSSLParameters() {
            return context.getSupportedSSLParameters();
        }
    }

    private static final class SocketFactory extends SSLSocketFactory {

        private final SSLSocketFactory factory;
        private final SSLParameters parameters;

        SocketFactory(SSLSocketFactory factory, SSLParameters parameters) {
            this.factory = factory;
            this.parameters = parameters;
        }

        private Socket configured(Socket socket) {
            ((SSLSocket) socket).setSSLParameters(parameters);
            return socket;
        }

        // what the listener calls: a server-side socket over an accepted one
        @Override
        public Socket createSocket(Socket socket, InputStream consumed, boolean autoClose) throws IOException {
            return configured(factory.createSocket(socket, consumed, autoClose));
        }

        @Override
        public Socket createSocket(Socket socket, String host, int port, boolean autoClose) throws IOException {
            return configured(factory.createSocket(socket, host, port, autoClose));
        }

        @Override
        public Socket createSocket(String host, int port) throws IOException {
            return configured(factory.createSocket(host, port));
        }

        @Override
        public Socket createSocket(String host, int port, InetAddress localHost, int localPort) throws IOException {
            return configured(factory.createSocket(host, port, localHost, localPort));
        }

        @Override
        public Socket createSocket(InetAddress host, int port) throws IOException {
            return configured(factory.createSocket(host, port));
        }

        @Override
        public Socket createSocket(InetAddress address, int port, InetAddress localAddress, int localPort)
                throws IOException {
            return configured(factory.createSocket(address, port, localAddress, localPort));
        }

        @Override
        public String[] getDefaultCipherSuites() {
            return parameters.getCipherSuites();
        }

        @Override
        public String[] getSupportedCipherSuites() {
            return factory.getSupportedCipherSuites();
        }
    }
}
