package io.insika.router.server.discovery;

import java.net.InetAddress;
import java.net.UnknownHostException;

import org.junit.jupiter.api.Test;

import static org.hamcrest.MatcherAssert.assertThat;
import static org.hamcrest.Matchers.is;

class AddressTextTest {

    @Test
    void ipv6IsWrittenInItsShortForm() throws UnknownHostException {
        assertThat(text("2001:0db8:0000:0000:0000:0000:0000:0001"), is("2001:db8::1"));
        assertThat(text("::1"), is("::1"));
        assertThat(text("::"), is("::"));
        assertThat(text("fd00::"), is("fd00::"));
        assertThat(text("2001:db8:0:1:0:0:0:1"), is("2001:db8:0:1::1"));
        assertThat(text("2001:db8:0:0:1:0:0:1"), is("2001:db8::1:0:0:1"));
        assertThat(text("2001:db8:1:1:1:1:0:1"), is("2001:db8:1:1:1:1:0:1"));
        assertThat(text("10.42.0.7"), is("10.42.0.7"));
    }

    private static String text(String literal) throws UnknownHostException {
        return AddressText.of(InetAddress.getByName(literal));
    }
}
