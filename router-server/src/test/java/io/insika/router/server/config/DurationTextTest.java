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
    void fractionsOfAnyUnitAreExactToTheNanosecondRoundedDown() {
        assertThat(DurationText.parse("1.5m"), is(Optional.of(Duration.ofSeconds(90))));
        assertThat(DurationText.parse("0.25h"), is(Optional.of(Duration.ofMinutes(15))));
        assertThat(DurationText.parse("0.0015ms"), is(Optional.of(Duration.ofNanos(1_500))));
        assertThat(DurationText.parse("0.0000000019"), is(Optional.of(Duration.ofNanos(1))));
        assertThat(DurationText.parse("0.1666666666666666666666667m"), is(Optional.of(Duration.ofSeconds(10))));
        assertThat(DurationText.parse("1.000000000000000000000000000000000001s"), is(Optional.of(Duration.ofSeconds(1))));
    }

    @Test
    void aDurationBeyondWhatNanosecondsInALongHoldIsNotADuration() {
        assertThat(DurationText.parse("9223372036.854775807s"), is(Optional.of(Duration.ofNanos(Long.MAX_VALUE))));
        assertThat(DurationText.parse("9223372036.854775808s"), is(Optional.empty()));
        assertThat(DurationText.parse("2562048h"), is(Optional.empty()));
        assertThat(DurationText.parse("99999999999999999999999999999h"), is(Optional.empty()));
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
