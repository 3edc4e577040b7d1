package io.insika.router.server.routing;

import java.net.URI;
import java.util.List;

import io.insika.router.api.Backend;
import io.insika.router.api.PluginOptions;
import org.junit.jupiter.api.Test;

import static org.hamcrest.MatcherAssert.assertThat;
import static org.hamcrest.Matchers.is;
import static org.hamcrest.Matchers.not;

/** The ring fingerprint changes exactly when where keys go could change. */
class RingFingerprintTest {

    private static final Backend A = Backend.parse("http://10.0.0.1:8080");
    private static final Backend B = Backend.parse("http://10.0.0.2:8080");
    private static final String BOTH = RingFingerprint.of("ketama", PluginOptions.empty(), List.of(A, B));

    @Test
    void isSixteenHexDigitsAndIgnoresTheOrderBackendsCameIn() {
        assertThat(BOTH.matches("[0-9a-f]{16}"), is(true));
        assertThat(RingFingerprint.of("ketama", PluginOptions.empty(), List.of(B, A)), is(BOTH));
    }

    @Test
    void changesWithTheBackendSetTheirWeightsTheStrategyAndItsOptions() {
        assertThat(RingFingerprint.of("ketama", PluginOptions.empty(), List.of(A)), not(BOTH));
        assertThat(RingFingerprint.of("ketama", PluginOptions.empty(), List.of(A, B.withWeight(2))), not(BOTH));
        assertThat(RingFingerprint.of("rendezvous", PluginOptions.empty(), List.of(A, B)), not(BOTH));
        assertThat(RingFingerprint.of("ketama", PluginOptions.of("compat", "libketama"), List.of(A, B)), not(BOTH));
        assertThat(RingFingerprint.of("ketama", PluginOptions.empty(), List.of(A, B.withId("pod-b"))), not(BOTH));
    }

    @Test
    void ignoresWhatDoesNotPlaceKeys() {
        Backend published = B.withPublicAddress(URI.create("https://b.example.com"));

        assertThat(RingFingerprint.of("ketama", PluginOptions.empty(), List.of(A, published)), is(BOTH));
    }
}
