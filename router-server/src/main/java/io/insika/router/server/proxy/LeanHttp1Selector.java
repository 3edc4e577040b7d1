package io.insika.router.server.proxy;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.List;
import java.util.Set;
import java.util.concurrent.atomic.LongAdder;

import io.helidon.common.buffers.BufferData;
import io.helidon.webserver.ConnectionContext;
import io.helidon.webserver.ProtocolConfigs;
import io.helidon.webserver.http1.Http1Config;
import io.helidon.webserver.http1.Http1ConnectionProvider;
import io.helidon.webserver.spi.ProtocolConfig;
import io.helidon.webserver.spi.ServerConnection;
import io.helidon.webserver.spi.ServerConnectionSelector;
import io.insika.router.server.ServerSettings;

/**
 * Takes the proxy listener's HTTP/1 connections ahead of Helidon's own selector, as
 * {@link LeanHttp1Connection}s that hand over to the connection Helidon's selector would have
 * made, with the same configuration and upgrades. It also takes HTTP/1.0 connections and request
 * lines ended by a bare LF, which Helidon's selector refuses (they would be closed without an
 * answer): the router answers the first and refuses the second with a 400.
 */
public final class LeanHttp1Selector implements ServerConnectionSelector {

    /**
     * Connections the listener accepts past {@code server.max-connections}, each only long
     * enough to be answered from the bytes its first read brought ({@code /up} with 200, anything
     * else with the retry envelope) and closed: without it a full router let every new client,
     * the orchestrator's liveness probe included, wait in the listen backlog, and was restarted
     * for being busy. A few KiB of heap each, for milliseconds.
     */
    public static final int OVER_LIMIT_RESERVE = 64;

    private static final byte[] HTTP_10 = " HTTP/1.0".getBytes(StandardCharsets.US_ASCII);
    private static final byte[] HTTP_11 = " HTTP/1.1".getBytes(StandardCharsets.US_ASCII);

    private final ProxyHandler proxy;
    private final ServerConnectionSelector helidon;
    private final String ownPath;
    private final LongAdder handovers = new LongAdder();
    private final boolean leanHttp11;
    private final long headTimeoutNanos;
    private final OpenLimit connections;

    /**
     * @param proxy     the proxy
     * @param http1     the listener's HTTP/1 configuration
     * @param protocols every protocol configuration of the listener (the upgrades)
     * @param ownPath   the path the listener's routing answers itself, left to Helidon on HTTP/1.1
     * @param server    whether plain HTTP/1.1 requests are framed by the router too, or only
     *                  HTTP/1.0 ones and chunked bodies ({@code lean-http1}), and the head timeout
     * @param connections the proxy port's connections against its limit
     */
    @SuppressWarnings("deprecation")
    public LeanHttp1Selector(ProxyHandler proxy, Http1Config http1, List<ProtocolConfig> protocols, String ownPath,
                             ServerSettings server, OpenLimit connections) {
        this.proxy = proxy;
        this.leanHttp11 = server.leanHttp1();
        this.headTimeoutNanos = server.headTimeout().toNanos();
        this.connections = connections;
        this.ownPath = ownPath;
        this.helidon = new Http1ConnectionProvider().create("@default", http1, ProtocolConfigs.create(protocols));
    }

    @Override
    public int bytesToIdentifyConnection() {
        return helidon.bytesToIdentifyConnection();
    }

    @Override
    public Support supports(BufferData data) {
        return endsInHttp1Version(data) ? Support.SUPPORTED : helidon.supports(data);
    }

    // The first line ends in " HTTP/1.0" or " HTTP/1.1", with CRLF or a bare LF: Helidon's
    // selector takes only HTTP/1.1 with CRLF, and a connection no selector takes is closed
    // without an answer. Read without moving the buffer's position.
    private static boolean endsInHttp1Version(BufferData data) {
        int lf = data.indexOf((byte) '\n');
        int end = lf > 0 && data.get(lf - 1) == '\r' ? lf - 1 : lf;
        if (end < 9) {
            return false;
        }
        byte[] version = new byte[9];
        for (int i = 0; i < version.length; i++) {
            version[i] = (byte) data.get(end - 9 + i);
        }
        return Arrays.equals(version, HTTP_10) || Arrays.equals(version, HTTP_11);
    }

    @Override
    public Set<String> supportedApplicationProtocols() {
        return helidon.supportedApplicationProtocols();
    }

    @Override
    public ServerConnection connection(ConnectionContext ctx) {
        return new LeanHttp1Connection(ctx, this, helidon);
    }

    ProxyHandler proxy() {
        return proxy;
    }

    String ownPath() {
        return ownPath;
    }

    boolean leanHttp11() {
        return leanHttp11;
    }

    long headTimeoutNanos() {
        return headTimeoutNanos;
    }

    OpenLimit connections() {
        return connections;
    }

    void handedOver() {
        handovers.increment();
    }

    /** Connections handed to Helidon's HTTP/1 so far. */
    public long handovers() {
        return handovers.sum();
    }
}
