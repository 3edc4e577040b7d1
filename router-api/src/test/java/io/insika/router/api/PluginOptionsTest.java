package io.insika.router.api;

import java.util.Map;
import java.util.Set;

import org.junit.jupiter.api.Test;

import static org.hamcrest.MatcherAssert.assertThat;
import static org.hamcrest.Matchers.is;
import static org.junit.jupiter.api.Assertions.assertThrows;

class PluginOptionsTest {

    private final PluginOptions options = PluginOptions.of("routes[2].keys[0]",
            Map.of("field", "user", "depth", "x", "points", "70"));

    @Test
    void messagesNameThePathTheValueAndWhatIsValid() {
        PluginConfigException e = assertThrows(PluginConfigException.class,
                () -> options.intValue("depth", 1, 1, 64));
        assertThat(e.getMessage(), is("routes[2].keys[0].depth: [x] (expected: an integer from 1 to 64)"));
    }

    @Test
    void integersOutsideTheirBoundsAreRejected() {
        assertThrows(PluginConfigException.class, () -> options.intValue("points", 40, 1, 64));
        assertThat(options.intValue("absent", 40, 1, 64), is(40));
    }

    @Test
    void unknownOptionsAreRejectedWithTheKnownOnesListed() {
        PluginConfigException e = assertThrows(PluginConfigException.class,
                () -> options.requireOnly(Set.of("field", "points")));
        assertThat(e.getMessage(), is("routes[2].keys[0].depth: unknown option (known options: field, points)"));
    }

    @Test
    void requiredRejectsBlankAndMissing() {
        assertThat(options.required("field", "a name"), is("user"));
        PluginConfigException e = assertThrows(PluginConfigException.class, () -> options.required("name", "a name"));
        assertThat(e.getMessage(), is("routes[2].keys[0].name: [] (expected: a name)"));
    }

    @Test
    void oneOfListsTheAllowedWords() {
        PluginConfigException e = assertThrows(PluginConfigException.class,
                () -> PluginOptions.of("compat", "memcached").oneOf("compat", "none", Set.of("none", "libketama")));
        assertThat(e.getMessage(), is("compat: [memcached] (expected: one of libketama, none)"));
    }
}
