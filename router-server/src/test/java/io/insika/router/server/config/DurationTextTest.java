package io.insika.router.server.config;

import java.time.Duration;
import java.util.Optional;

import org.junit.jupiter.api.Test;

import static org.hamcrest.MatcherAssert.assertThat;
import static org.hamcrest.Matchers.is;

class DurationTextTest {

    @Test
    void aBareNumberIsSeconds() {
        assertThat(DurationText.parse("15"), is(Optional.of(Duration.ofSeconds(15))));
        assertThat(DurationText.parse("0.2"), is(Optional.of(Duration.ofMillis(200))));
    }

    @Test
    void unitsAndIsoFormsMeanTheSame() {
        for (String text : new String[] {"200ms", "0.2s", "PT0.2S", "pt0.2s", " 200 ms "}) {
            assertThat(text, DurationText.parse(text), is(Optional.of(Duration.ofMillis(200))));
        }
        assertThat(DurationText.parse("2m"), is(Optional.of(Duration.ofMinutes(2))));
        assertThat(DurationText.parse("1h"), is(Optional.of(Duration.ofHours(1))));
    }

    @Test
    void anythingElseIsNotADuration() {
        for (String text : new String[] {"", "ten", "-1", "10 seconds", "1d", "P", "1e3"}) {
            assertThat(text, DurationText.parse(text), is(Optional.empty()));
        }
    }
}
