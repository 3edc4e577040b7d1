package io.insika.router.api;

import java.net.URI;

import org.junit.jupiter.api.Test;

import static org.hamcrest.MatcherAssert.assertThat;
import static org.hamcrest.Matchers.containsString;
import static org.hamcrest.Matchers.is;
import static org.junit.jupiter.api.Assertions.assertThrows;

class BackendTest {

    @Test
    void idIsCanonicalHostAndPort() {
        assertThat(Backend.parse("http://Engine-1.Example:9292").id(), is("engine-1.example:9292"));
        assertThat(Backend.parse("https://10.0.0.7:443/").id(), is("10.0.0.7:443"));
        assertThat(Backend.parse("http://[::1]:8080").id(), is("[::1]:8080"));
    }

    @Test
    void hostStripsIpv6Brackets() {
        Backend backend = Backend.parse("http://[::1]:8080");
        assertThat(backend.host(), is("::1"));
        assertThat(backend.port(), is(8080));
    }

    @Test
    void weightDefaultsToOne() {
        assertThat(Backend.parse("http://a:1").weight(), is(1));
        assertThat(Backend.parse("http://a:1").withWeight(5).weight(), is(5));
    }

    @Test
    void rejectsWhatIsNotSchemeHostAndPort() {
        for (String bad : new String[] {"ftp://a:1", "http://a", "a:80", "http://a:1/path", "http://a:1?q",
                "http://u@a:1", "http://a:0", "http://a:70000", "", "http://a b:1"}) {
            IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> Backend.parse(bad), bad);
            assertThat(e.getMessage(), containsString("expected: http(s)://host:port"));
        }
    }

    @Test
    void rejectsWeightBelowOne() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> Backend.of(URI.create("http://a:1"), 0));
        assertThat(e.getMessage(), is("weight: [0] (expected: >= 1)"));
    }

    @Test
    void takesThePlacementIdItsClusterUsesInPlaceOfHostAndPort() {
        Backend backend = Backend.parse("http://10.0.0.7:7311").withId("actor-host-7");

        assertThat(backend.id(), is("actor-host-7"));
        assertThat(backend.uri(), is(URI.create("http://10.0.0.7:7311")));
        assertThat(backend.toString(), is("http://10.0.0.7:7311 (id actor-host-7)"));
    }

    @Test
    void rejectsAnIdThatIsEmptyTooLongOrHasSpaceOrControlCharacters() {
        for (String id : new String[] {"", " a", "a b", "a\tb", "é", "x".repeat(256)}) {
            IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                    () -> Backend.parse("http://a:1").withId(id));
            assertThat(e.getMessage(), is("id: [" + id + "] (expected: 1 to 255 visible ASCII characters, no space)"));
        }
        assertThat(Backend.parse("http://a:1").withId("x".repeat(255)).id().length(), is(255));
    }

    @Test
    void backendsWithTheSameUriAndWeightAreEqual() {
        assertThat(Backend.parse("http://A:1").id(), is(Backend.parse("http://a:1").id()));
        assertThat(Backend.parse("http://a:1"), is(Backend.parse("http://a:1")));
    }
}
