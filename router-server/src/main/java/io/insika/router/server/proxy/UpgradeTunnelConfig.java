package io.insika.router.server.proxy;

import java.util.Objects;

import io.helidon.webserver.spi.ProtocolConfig;

/**
 * Turns on the WebSocket tunnel for one listening socket: added to the server's protocols, it
 * carries the proxy the tunnel places connections with (so two routers in one JVM never share one).
 *
 * @param proxy the proxy whose routes, backends and connections the tunnel uses
 */
public record UpgradeTunnelConfig(ProxyHandler proxy) implements ProtocolConfig {

    static final String TYPE = "insika-upgrade-tunnel";

    public UpgradeTunnelConfig {
        Objects.requireNonNull(proxy, "proxy");
    }

    @Override
    public String name() {
        return TYPE;
    }

    @Override
    public String type() {
        return TYPE;
    }
}
