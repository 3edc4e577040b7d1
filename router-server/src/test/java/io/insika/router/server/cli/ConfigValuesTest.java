package io.insika.router.server.cli;

import java.time.Duration;

import org.junit.jupiter.api.Test;

import static org.hamcrest.MatcherAssert.assertThat;
import static org.hamcrest.Matchers.is;

/** {@code check} prints durations the way the YAML accepts and a person writes them. */
class ConfigValuesTest {

    @Test
    void durationsPrintInTheLargestWholeUnit() {
        assertThat(ConfigValues.text(Duration.ofSeconds(10)), is("10s"));
        assertThat(ConfigValues.text(Duration.ofMillis(500)), is("500ms"));
        assertThat(ConfigValues.text(Duration.ofMillis(1_500)), is("1500ms"));
        assertThat(ConfigValues.text(Duration.ofMinutes(2)), is("2m"));
        assertThat(ConfigValues.text(Duration.ofMinutes(90)), is("90m"));
        assertThat(ConfigValues.text(Duration.ofHours(1)), is("1h"));
        assertThat(ConfigValues.text(Duration.ZERO), is("0s"));
    }

    @Test
    void aDurationFinerThanAMillisecondKeepsItsExactIsoForm() {
        assertThat(ConfigValues.text(Duration.ofNanos(1_500_000)), is("PT0.0015S"));
    }
}
