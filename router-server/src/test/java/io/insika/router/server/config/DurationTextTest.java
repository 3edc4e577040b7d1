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

    // check prints durations the way the YAML accepts and a person writes them
    @Test
    void durationsPrintInTheLargestWholeUnit() {
        assertThat(DurationText.format(Duration.ofSeconds(10)), is("10s"));
        assertThat(DurationText.format(Duration.ofMillis(500)), is("500ms"));
        assertThat(DurationText.format(Duration.ofMillis(1_500)), is("1500ms"));
        assertThat(DurationText.format(Duration.ofMinutes(2)), is("2m"));
        assertThat(DurationText.format(Duration.ofMinutes(90)), is("90m"));
        assertThat(DurationText.format(Duration.ofHours(1)), is("1h"));
        assertThat(DurationText.format(Duration.ZERO), is("0s"));
    }

    @Test
    void aDurationFinerThanAMillisecondKeepsItsExactIsoForm() {
        assertThat(DurationText.format(Duration.ofNanos(1_500_000)), is("PT0.0015S"));
    }
}
