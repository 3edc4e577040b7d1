package io.insika.router.server.proxy;

import java.net.InetSocketAddress;

import org.junit.jupiter.api.Test;

import static org.hamcrest.MatcherAssert.assertThat;
import static org.hamcrest.Matchers.is;

/** The router's element of a trusted proxy's {@code Forwarded}, as RFC 7239 writes one. */
class ForwardingClaimsTest {

    @Test
    void anIpv4PeerAndAPlainHostAreTokens() {
        assertThat(ForwardingClaims.forwardedElement(new InetSocketAddress("192.0.2.43", 5000), false, "app.example"),
                is("for=192.0.2.43;proto=http;host=app.example"));
    }

    @Test
    void anIpv6PeerIsBracketedAndQuotedAndAHostWithAPortIsQuoted() {
        assertThat(ForwardingClaims.forwardedElement(new InetSocketAddress("2001:db8::17", 5000), true,
                "[2001:db8::1]:8443"), is("for=\"[2001:db8:0:0:0:0:0:17]\";proto=https;host=\"[2001:db8::1]:8443\""));
    }

    @Test
    void aPeerWithoutAnAddressIsUnknown() {
        assertThat(ForwardingClaims.forwardedElement(InetSocketAddress.createUnresolved("somewhere", 1), false, ""),
                is("for=unknown;proto=http"));
    }

    @Test
    void everyXForwardedNameAndTheCommonClientAddressNamesAreClaims() {
        for (String name : new String[] {"forwarded", "x-forwarded-port", "x-forwarded-prefix", "x-forwarded-ssl",
                "x-real-ip", "true-client-ip", "client-ip", "x-cluster-client-ip"}) {
            assertThat(name, ForwardingClaims.isClaim(name), is(true));
        }
        assertThat(ForwardingClaims.isClaim("x-trace"), is(false));
    }
}
