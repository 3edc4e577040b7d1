package io.insika.router.server.proxy;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.SequenceInputStream;
import java.util.Arrays;

import org.junit.jupiter.api.Test;

import static org.hamcrest.MatcherAssert.assertThat;
import static org.hamcrest.Matchers.is;
import static org.junit.jupiter.api.Assertions.assertThrows;

class BodyPeekTest {

    private static final PeekBudget UNBOUNDED = new PeekBudget(Integer.MAX_VALUE);

    private static byte[] body(int size) {
        byte[] bytes = new byte[size];
        for (int i = 0; i < size; i++) {
            bytes[i] = (byte) i;
        }
        return bytes;
    }

    @Test
    void aPrefixStopsAtTheCapAndKnowsTheBodyGoesOn() throws IOException {
        byte[] body = body(100);
        BodyPeek peek = new BodyPeek(new ByteArrayInputStream(body), 40, -1, UNBOUNDED);
        assertThat(peek.open().readAllBytes(), is(Arrays.copyOf(body, 40)));
        assertThat(peek.exceedsLimit(), is(true));
    }

    @Test
    void aBodyOfExactlyTheCapDoesNotExceedIt() throws IOException {
        BodyPeek peek = new BodyPeek(new ByteArrayInputStream(body(40)), 40, 40, UNBOUNDED);
        assertThat(peek.open().readAllBytes().length, is(40));
        assertThat(peek.exceedsLimit(), is(false));
    }

    @Test
    void everyOpenReplaysFromTheFirstByte() throws IOException {
        BodyPeek peek = new BodyPeek(new ByteArrayInputStream(body(10)), 64, -1, UNBOUNDED);
        InputStream first = peek.open();
        assertThat(first.read(), is(0));
        assertThat(first.read(), is(1));
        assertThat(peek.open().readAllBytes(), is(body(10)));
    }

    @Test
    void forwardingSendsThePeekedBytesThenTheRestExactlyOnce() throws IOException {
        byte[] body = body(100_000);
        for (long declared : new long[] {-1, body.length}) {
            BodyPeek peek = new BodyPeek(new ByteArrayInputStream(body), 1000, declared, UNBOUNDED);
            peek.open().readNBytes(700);
            ByteArrayOutputStream forwarded = new ByteArrayOutputStream();
            forward(peek, forwarded);
            assertThat(forwarded.toByteArray(), is(body));
        }
    }

    @Test
    void aClientThatBreaksOffReadsAsAnEndToExtractorsAndAsGoneToTheForwarder() throws IOException {
        InputStream breaking = new SequenceInputStream(new ByteArrayInputStream(body(10)), new InputStream() {
            @Override
            public int read() throws IOException {
                throw new IOException("connection reset");
            }
        });
        BodyPeek peek = new BodyPeek(breaking, 64, 1000, UNBOUNDED);
        assertThat(peek.open().readAllBytes(), is(body(10)));
        assertThrows(ClientGoneException.class, () -> forward(peek, new ByteArrayOutputStream()));
    }

    @Test
    void aSmallBodyIsPeekedWithoutBudget() throws IOException {
        PeekBudget none = new PeekBudget(0);
        BodyPeek peek = new BodyPeek(new ByteArrayInputStream(body(8000)), 262_144, 8000, none);
        assertThat(peek.open().readAllBytes(), is(body(8000)));
        assertThat(peek.overBudget(), is(false));
        assertThat(none.inUse(), is(0L));
    }

    @Test
    void aPeekThatCannotGetBudgetStopsAndSaysSoAndGivesBackWhatItHeld() throws IOException {
        PeekBudget budget = new PeekBudget(16 * 1024);
        BodyPeek peek = new BodyPeek(new ByteArrayInputStream(body(200_000)), 262_144, 200_000, budget);
        byte[] seen = peek.open().readAllBytes();
        assertThat(seen.length < 200_000, is(true));
        assertThat(peek.overBudget(), is(true));
        assertThat(budget.inUse() > 0, is(true));
        peek.releaseBudget();
        assertThat(budget.inUse(), is(0L));
    }

    // as the forwarder sends a body: the peeked bytes, then the rest from the client
    private static void forward(BodyPeek peek, ByteArrayOutputStream backend) throws IOException {
        peek.forwardPeeked(backend);
        peek.forwardRest(backend);
    }
}
