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

    // Keys made of "Aa" and "BB" blocks of one length have the same String.hashCode, so one set.

    @Test
    void twoKeysSharingASetAreBothRemembered() {
        OwnerMemo memo = new OwnerMemo(byLength);

        for (int round = 0; round < 3; round++) {
            memo.ownerOf("Aa");
            memo.ownerOf("BB");
        }

        assertThat(placed, is(List.of("Aa", "BB")));
    }

    @Test
    void eightKeysSharingASetAreAllRememberedAndANinthTakesOneOfTheirEntries() {
        OwnerMemo memo = new OwnerMemo(byLength);
        List<String> sharing = sharingOneHash(4); // 16 keys of 8 chars, one String.hashCode

        for (int round = 0; round < 3; round++) {
            sharing.subList(0, 8).forEach(memo::ownerOf);
        }
        assertThat("each placed once", placed, is(sharing.subList(0, 8)));

        memo.ownerOf(sharing.get(8));
        placed.clear();
        for (int round = 0; round < 3; round++) {
            sharing.subList(0, 9).forEach(memo::ownerOf);
        }
        assertThat("nine keys in eight entries: some placed again each round", placed.isEmpty(), is(false));
        assertThat("but never all of them", placed.size() < 27, is(true));
    }

    // All 2^blocks keys of that many "Aa" or "BB" blocks
    private static List<String> sharingOneHash(int blocks) {
        List<String> keys = new ArrayList<>(List.of(""));
        for (int i = 0; i < blocks; i++) {
            List<String> longer = new ArrayList<>();
            for (String key : keys) {
                longer.add(key + "Aa");
                longer.add(key + "BB");
            }
            keys = longer;
        }
        return keys;
    }

    @Test
    void aThirdKeyInASetTakesAnEntryAndEveryKeyKeepsItsOwnOwner() {
        OwnerMemo memo = new OwnerMemo(key -> key.indexOf('B'));

        for (int round = 0; round < 3; round++) {
            assertThat(memo.ownerOf("AaAa"), is(-1));
            assertThat(memo.ownerOf("AaBB"), is(2));
            assertThat(memo.ownerOf("BBAa"), is(0));
        }
    }
}
