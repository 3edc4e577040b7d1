package io.insika.router.server;

import java.time.Duration;

import io.helidon.webserver.WebServerConfig;
import io.insika.router.server.proxy.LeanHttp1Selector;
import io.insika.router.server.proxy.UnclaimedConnections;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** What the proxy socket asks of Helidon's listener where its defaults do not suit a proxy. */
class ProxyListenerTest {

    private final UnclaimedConnections unclaimed = UnclaimedConnections.start(Duration.ofSeconds(20), Duration.ofSeconds(5));
    private final WebServerConfig listener = RouterServer.proxyListener(
            new ServerSettings("127.0.0.1", 0, "127.0.0.1", 0, Duration.ofSeconds(7), Duration.ZERO, 123, true,
                    Duration.ofSeconds(20), Duration.ofSeconds(40), java.util.Optional.empty(), io.insika.router.server.proxy.Http2Settings.DEFAULTS), unclaimed).buildPrototype();

    @AfterEach
    void stop() {
        unclaimed.close();
    }

    @Test
    void eachConnectionKeepsOneSocketBufferNotTwo() {
        // NioSocket holds 16 KiB of heap buffers per open connection, PlainSocket 8 KiB
        assertFalse(listener.useNio());
    }

    @Test
    void responsesAreNotStagedInABufferedStream() {
        assertEquals(0, listener.writeBufferSize());
    }

    @Test
    void clientSocketsSendEachWriteAtOnceWithoutNagle() {
        // a chunked answer's end written apart from its last data waited ~40 ms for a delayed ACK
        assertTrue(listener.connectionOptions().tcpNoDelay());
    }

    @Test
    void idleConnectionsAreClosedAfterTheIdleTimeoutCheckedOftenEnoughForTheHeadTimeout() {
        assertEquals(Duration.ofSeconds(40), listener.idleConnectionTimeout());
        assertEquals(Duration.ofSeconds(5), listener.idleConnectionPeriod());
    }

    @Test
    void theConfiguredLimitsAndGraceApply() {
        // the reserve answers /up and the retry envelope past the limit
        assertEquals(123 + LeanHttp1Selector.OVER_LIMIT_RESERVE, listener.maxTcpConnections());
        assertEquals(Duration.ofSeconds(7), listener.shutdownGracePeriod());
        assertFalse(listener.shutdownHook());
    }
}
