package io.insika.router.strategies.placement;

import static org.hamcrest.MatcherAssert.assertThat;
import static org.hamcrest.Matchers.is;

import java.util.ArrayList;
import java.util.List;
import java.util.function.ToIntFunction;

import org.junit.jupiter.api.Test;

class OwnerMemoTest {

    private final List<String> placed = new ArrayList<>();
    private final ToIntFunction<String> byLength = key -> {
        placed.add(key);
        return key.length();
    };

    @Test
    void aRememberedKeyIsNotPlacedAgain() {
        OwnerMemo memo = new OwnerMemo(byLength);

        assertThat(memo.ownerOf("session-1"), is(9));
        assertThat(memo.ownerOf(new String("session-1")), is(9));
        assertThat(placed, is(List.of("session-1")));
    }

    @Test
    void keysLongerThanTheLimitArePlacedEveryTime() {
        OwnerMemo memo = new OwnerMemo(byLength);
        String longest = "k".repeat(OwnerMemo.MAX_KEY_LENGTH);
        String tooLong = longest + "k";

        memo.ownerOf(longest);
        memo.ownerOf(longest);
        memo.ownerOf(tooLong);
        memo.ownerOf(tooLong);

        assertThat(placed, is(List.of(longest, tooLong, tooLong)));
    }

    @Test
    void keysSharingASlotEachGetTheirOwnOwner() {
        // "Aa" and "BB" have the same String.hashCode, so they always share a slot.
        OwnerMemo memo = new OwnerMemo(key -> {
            placed.add(key);
            return key.charAt(0);
        });

        for (int round = 0; round < 3; round++) {
            assertThat(memo.ownerOf("Aa"), is((int) 'A'));
            assertThat(memo.ownerOf("BB"), is((int) 'B'));
        }
        assertThat(placed.size(), is(6));
    }
}
