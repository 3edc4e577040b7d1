package io.insika.router.server.proxy;

import java.util.List;
import java.util.Objects;

import io.helidon.webserver.spi.ProtocolConfig;

/**
 * Turns on the WebSocket tunnel for one listening socket: added to the server's protocols, it
 * carries the proxy the tunnel places connections with (so two routers in one JVM never share one).
 *
 * <p>Helidon 4.5 finds an upgrader by the exact text of the {@code Upgrade} header, while RFC 6455
 * (section 4.2.1) compares it case-insensitively: so one config per spelling clients use.
 *
 * @param proxy    the proxy whose routes, backends and connections the tunnel uses
 * @param spelling one spelling of the {@code Upgrade: websocket} token
 */
public record UpgradeTunnelConfig(ProxyHandler proxy, String spelling) implements ProtocolConfig {

    static final String TYPE = "insika-upgrade-tunnel";
    /** Browsers and most libraries send the first; older clients the others. */
    private static final List<String> SPELLINGS = List.of("websocket", "WebSocket", "Websocket", "WEBSOCKET");

    public UpgradeTunnelConfig {
        Objects.requireNonNull(proxy, "proxy");
        Objects.requireNonNull(spelling, "spelling");
    }

    /** The configs that tunnel every common spelling of the WebSocket upgrade. */
    public static List<UpgradeTunnelConfig> forEverySpelling(ProxyHandler proxy) {
        return SPELLINGS.stream().map(spelling -> new UpgradeTunnelConfig(proxy, spelling)).toList();
    }

    @Override
    public String name() {
        return TYPE + "-" + spelling;
    }

    @Override
    public String type() {
        return TYPE;
    }
}
