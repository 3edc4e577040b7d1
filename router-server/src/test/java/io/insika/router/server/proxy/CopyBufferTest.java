package io.insika.router.server.proxy;

import java.util.ArrayList;
import java.util.List;

import org.junit.jupiter.api.Test;

import static org.hamcrest.MatcherAssert.assertThat;
import static org.hamcrest.Matchers.contains;
import static org.hamcrest.Matchers.is;

/** A copy buffer is the size of what it copies: what is left when known, grown by use when not. */
class CopyBufferTest {

    @Test
    void aBufferForAKnownLengthIsNoLargerThanWhatIsLeftAndNeverGrows() {
        assertThat(new CopyBuffer(300).bytes().length, is(300));
        assertThat(new CopyBuffer(0).bytes().length, is(1));
        assertThat(new CopyBuffer(1L << 40).bytes().length, is(CopyBuffer.MAX));

        CopyBuffer exact = new CopyBuffer(10);
        exact.read(10);
        assertThat("a read that took all there was asks for no more room", exact.bytes().length, is(10));
    }

    @Test
    void aBufferForAnUnknownLengthStartsSmallAndGrowsOnlyWhenAReadFillsIt() {
        CopyBuffer chunked = new CopyBuffer(-1);
        assertThat(chunked.bytes().length, is(CopyBuffer.FIRST_UNKNOWN));

        chunked.read(100);
        assertThat("a read with room to spare", chunked.bytes().length, is(CopyBuffer.FIRST_UNKNOWN));
        List<Integer> sizes = new ArrayList<>();
        while (chunked.bytes().length < CopyBuffer.MAX) {
            chunked.read(chunked.bytes().length);
            sizes.add(chunked.bytes().length);
        }
        assertThat("four times larger after each full read", sizes, contains(2048, 8192, CopyBuffer.MAX));
        chunked.read(CopyBuffer.MAX);
        assertThat("never past the most a read takes", chunked.bytes().length, is(CopyBuffer.MAX));
    }
}
