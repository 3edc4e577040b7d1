package io.insika.router.strategies.placement;

import static io.insika.router.strategies.placement.PlacementFixtures.backend;
import static org.hamcrest.MatcherAssert.assertThat;
import static org.hamcrest.Matchers.contains;
import static org.hamcrest.Matchers.is;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.List;

import org.junit.jupiter.api.Test;

class BackendSetTest {

    @Test
    void sortsBackendsByIdWhateverTheInputOrder() {
        BackendSet set = BackendSet.of(List.of(backend("b:2", 1), backend("a:9", 1), backend("a:10", 1)));

        assertThat(set.list().stream().map(b -> b.id()).toList(), contains("a:10", "a:9", "b:2"));
    }

    @Test
    void answersEachOwnerWithTheSameOptionalEveryTime() {
        BackendSet set = BackendSet.of(List.of(backend("a:1", 1)));

        assertThat(set.owner(0) == set.owner(0), is(true));
    }

    @Test
    void knowsWhetherAllWeightsAreEqual() {
        assertThat(BackendSet.of(List.of()).equalWeights(), is(true));
        assertThat(BackendSet.of(List.of(backend("a:1", 3), backend("b:1", 3))).equalWeights(), is(true));
        assertThat(BackendSet.of(List.of(backend("a:1", 3), backend("b:1", 1))).equalWeights(), is(false));
    }

    @Test
    void rejectsTwoBackendsWithTheSameId() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> BackendSet.of(List.of(backend("a:1", 1), backend("a:1", 2))));

        assertThat(e.getMessage(), is("backends: [a:1] listed twice (expected: distinct ids)"));
    }
}
