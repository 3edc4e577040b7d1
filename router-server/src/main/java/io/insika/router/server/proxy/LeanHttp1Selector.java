package io.insika.router.server.proxy;

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

/**
 * Takes the proxy listener's HTTP/1 connections ahead of Helidon's own selector, as
 * {@link LeanHttp1Connection}s that hand over to the connection Helidon's selector would have
 * made, with the same configuration and upgrades.
 */
public final class LeanHttp1Selector implements ServerConnectionSelector {

    private final ProxyHandler proxy;
    private final ServerConnectionSelector helidon;
    private final String ownPath;
    private final LongAdder handovers = new LongAdder();

    /**
     * @param proxy     the proxy
     * @param http1     the listener's HTTP/1 configuration
     * @param protocols every protocol configuration of the listener (the upgrades)
     * @param ownPath   the path the listener's routing answers itself, always left to Helidon
     */
    @SuppressWarnings("deprecation")
    public LeanHttp1Selector(ProxyHandler proxy, Http1Config http1, List<ProtocolConfig> protocols, String ownPath) {
        this.proxy = proxy;
        this.ownPath = ownPath;
        this.helidon = new Http1ConnectionProvider().create("@default", http1, ProtocolConfigs.create(protocols));
    }

    @Override
    public int bytesToIdentifyConnection() {
        return helidon.bytesToIdentifyConnection();
    }

    @Override
    public Support supports(BufferData data) {
        return helidon.supports(data);
    }

    @Override
    public Set<String> supportedApplicationProtocols() {
        return helidon.supportedApplicationProtocols();
    }

    @Override
    public ServerConnection connection(ConnectionContext ctx) {
        return new LeanHttp1Connection(ctx, proxy, helidon, ownPath, handovers);
    }

    /** Connections handed to Helidon's HTTP/1 so far. */
    public long handovers() {
        return handovers.sum();
    }
}
