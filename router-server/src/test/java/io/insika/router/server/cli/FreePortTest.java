package io.insika.router.server.cli;

import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.time.Duration;

import io.insika.router.server.ServerSettings;
import org.junit.jupiter.api.Test;

import static org.hamcrest.MatcherAssert.assertThat;
import static org.hamcrest.Matchers.startsWith;
import static org.junit.jupiter.api.Assertions.assertThrows;

/** A busy port stops the start in one line naming its setting, checked on the address it will be bound to. */
class FreePortTest {

    @Test
    void theAdminPortIsCheckedWhereItWillListenNotWhereTheProxyDoes() throws Exception {
        try (ServerSocket taken = new ServerSocket()) {
            taken.bind(new InetSocketAddress("127.0.0.1", 0));
            int port = taken.getLocalPort();

            StartupException busy = assertThrows(StartupException.class,
                    () -> FreePort.requireBoth(admin("127.0.0.2", "127.0.0.1", port)));

            assertThat(busy.getMessage(), startsWith("server.admin-port: port " + port + " on 127.0.0.1 is not"
                    + " available ("));
            FreePort.requireBoth(admin("127.0.0.1", "127.0.0.2", port)); // free on the admin host: no exception
        }
    }

    private static ServerSettings admin(String proxyHost, String adminHost, int adminPort) {
        return new ServerSettings(proxyHost, 0, adminHost, adminPort, Duration.ZERO, Duration.ZERO,
                ServerSettings.DEFAULT_MAX_CONNECTIONS, true, ServerSettings.DEFAULT_HEAD_TIMEOUT,
                ServerSettings.DEFAULT_IDLE_TIMEOUT, java.util.Optional.empty(), io.insika.router.server.proxy.Http2Settings.DEFAULTS);
    }
}
