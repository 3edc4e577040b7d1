package io.insika.router.server.proxy;

import java.net.Socket;
import java.net.SocketOption;
import java.nio.channels.SocketChannel;
import java.time.Duration;
import java.util.Map;
import java.util.Optional;

import io.helidon.common.socket.SocketOptions;

/**
 * The proxy listener's socket options, which also hand each accepted connection to
 * {@link UnclaimedConnections}: configuring the accepted socket is the one point of Helidon 4.5's
 * listener that sees a connection before its first read.
 */
public final class ListenerSocketOptions implements SocketOptions {

    private final SocketOptions options;
    private final UnclaimedConnections unclaimed;

    /**
     * @param options   the options every accepted socket gets
     * @param unclaimed where each accepted connection is timed until a protocol claims it
     */
    public ListenerSocketOptions(SocketOptions options, UnclaimedConnections unclaimed) {
        this.options = options;
        this.unclaimed = unclaimed;
    }

    @Override
    public void configureSocket(SocketChannel socket) {
        options.configureSocket(socket);
        unclaimed.accepted(socket);
    }

    @Override
    public void configureSocket(Socket socket) {
        options.configureSocket(socket);
    }

    @Override
    public Map<SocketOption<?>, Object> socketOptions() {
        return options.socketOptions();
    }

    @Override
    public Duration connectTimeout() {
        return options.connectTimeout();
    }

    @Override
    public Duration readTimeout() {
        return options.readTimeout();
    }

    @Override
    public Optional<Integer> socketReceiveBufferSize() {
        return options.socketReceiveBufferSize();
    }

    @Override
    public Optional<Integer> socketSendBufferSize() {
        return options.socketSendBufferSize();
    }

    @Override
    public boolean socketReuseAddress() {
        return options.socketReuseAddress();
    }

    @Override
    public boolean socketKeepAlive() {
        return options.socketKeepAlive();
    }

    @Override
    public boolean tcpNoDelay() {
        return options.tcpNoDelay();
    }
}
