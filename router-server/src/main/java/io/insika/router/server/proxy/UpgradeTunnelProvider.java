package io.insika.router.server.proxy;

import io.helidon.webserver.ProtocolConfigs;
import io.helidon.webserver.http1.spi.Http1UpgradeProvider;
import io.helidon.webserver.http1.spi.Http1Upgrader;

/**
 * Found by Helidon's HTTP/1 connection provider through {@link java.util.ServiceLoader}; active
 * only on sockets whose protocols include an {@link UpgradeTunnelConfig}.
 */
public final class UpgradeTunnelProvider implements Http1UpgradeProvider<UpgradeTunnelConfig> {

    /** For the service loader. */
    public UpgradeTunnelProvider() {
    }

    @Override
    public String protocolType() {
        return UpgradeTunnelConfig.TYPE;
    }

    @Override
    public Class<UpgradeTunnelConfig> protocolConfigType() {
        return UpgradeTunnelConfig.class;
    }

    @Override
    public Http1Upgrader create(UpgradeTunnelConfig config, ProtocolConfigs configs) {
        return new UpgradeTunnel(config.proxy()::parts, config.spelling());
    }
}
