package io.insika.router.server.proxy;

import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

import io.helidon.common.buffers.BufferData;
import io.helidon.common.buffers.DataWriter;
import io.helidon.http.Header;
import io.helidon.http.HeaderNames;
import io.helidon.http.HeaderValues;
import org.junit.jupiter.api.Test;

import static org.hamcrest.MatcherAssert.assertThat;
import static org.hamcrest.Matchers.contains;
import static org.hamcrest.Matchers.containsString;
import static org.hamcrest.Matchers.endsWith;
import static org.hamcrest.Matchers.hasSize;
import static org.hamcrest.Matchers.is;
import static org.hamcrest.Matchers.not;
import static org.hamcrest.Matchers.sameInstance;
import static org.hamcrest.Matchers.startsWith;

/**
 * How the lean connection's answers reach the socket: each write below is one write to the
 * client's connection, so these pin how many segments an answer costs and what they hold.
 */
class LeanAnswerTest {

    /** Each writeNow as the client would receive it. */
    private static final class Writes implements DataWriter {
        final List<String> writes = new ArrayList<>();
        final List<BufferData> buffers = new ArrayList<>();

        @Override
        public void write(BufferData... buffers) {
            for (BufferData buffer : buffers) {
                writeNow(buffer);
            }
        }

        @Override
        public void write(BufferData buffer) {
            writeNow(buffer);
        }

        @Override
        public void writeNow(BufferData... buffers) {
            write(buffers);
        }

        @Override
        public void writeNow(BufferData buffer) {
            buffers.add(buffer);
            byte[] bytes = new byte[buffer.available()];
            buffer.read(bytes);
            writes.add(new String(bytes, StandardCharsets.ISO_8859_1));
        }
    }

    private static byte[] ascii(String text) {
        return text.getBytes(StandardCharsets.US_ASCII);
    }

    @Test
    void aChunkedAnswersLastDataAndItsEndLeaveInOneWrite() throws Exception {
        Writes socket = new Writes();
        OutputStream body = new LeanAnswer(socket, new LeanAnswer.Scratch(), false, false).outputStream();

        body.write(ascii("hello "));
        body.flush(); // the relay's flush: its next read of the backend would wait
        body.write(ascii("world"));
        body.close();

        assertThat(socket.writes, hasSize(2));
        assertThat(socket.writes.get(0), containsString("Transfer-Encoding: chunked\r\n\r\n6\r\nhello \r\n"));
        assertThat(socket.writes.get(1), is("5\r\nworld\r\n0\r\n\r\n"));
    }

    @Test
    void eachChunksSizeIsSpelledInHexAsIntegerToHexStringSpellsIt() throws Exception {
        Writes socket = new Writes();
        OutputStream body = new LeanAnswer(socket, new LeanAnswer.Scratch(), false, false).outputStream();
        body.flush(); // the head on its own
        int[] sizes = {1, 9, 10, 15, 16, 255, 256, 4095, 4096, 10_000, LeanAnswer.HOLD_LIMIT - 1};
        for (int size : sizes) {
            body.write(new byte[size]);
            body.flush();
        }
        body.close();

        for (int i = 0; i < sizes.length; i++) {
            String chunk = socket.writes.get(i + 1);
            assertThat(chunk, startsWith(Integer.toHexString(sizes[i]) + "\r\n"));
            assertThat(chunk.length(), is(Integer.toHexString(sizes[i]).length() + 2 + sizes[i] + 2));
        }
        assertThat(socket.writes.getLast(), is("0\r\n\r\n"));
    }

    @Test
    void anAnswerReadInOneGoIsOneWriteHeadToEnd() throws Exception {
        Writes socket = new Writes();
        OutputStream body = new LeanAnswer(socket, new LeanAnswer.Scratch(), false, false).outputStream();

        body.write(ascii("a"));
        body.write(ascii("b"));
        body.close();

        assertThat(socket.writes, hasSize(1));
        assertThat(socket.writes.getFirst(), startsWith("HTTP/1.1 200 OK\r\n"));
        assertThat(socket.writes.getFirst(), endsWith("\r\n\r\n1\r\na\r\n1\r\nb\r\n0\r\n\r\n"));
    }

    @Test
    void aFlushBeforeAnyBodySendsTheHeadSoAQuietStreamShowsItsStatus() throws Exception {
        Writes socket = new Writes();
        OutputStream body = new LeanAnswer(socket, new LeanAnswer.Scratch(), false, false).outputStream();

        body.flush();

        assertThat(socket.writes, hasSize(1));
        assertThat(socket.writes.getFirst(), startsWith("HTTP/1.1 200 OK\r\n"));
        assertThat(socket.writes.getFirst(), endsWith("Transfer-Encoding: chunked\r\n\r\n"));
    }

    @Test
    void eachFieldIsWrittenAsHelidonWritesItWhateverItsLengthOrValues() throws Exception {
        List<Header> fields = List.of(HeaderValues.create(HeaderNames.CONTENT_TYPE, "text/plain"),
                HeaderValues.create(HeaderNames.create("x-Lower-And-Upper"), "v"),
                HeaderValues.create(HeaderNames.create("X-Long"), "x".repeat(300)),
                HeaderValues.create(HeaderNames.create("X-Short"), "short after long"),
                HeaderValues.create(HeaderNames.create("X-Not-Ascii"), "caf\u00e9"),
                HeaderValues.create(HeaderNames.create("X-Two"), "a", "b"),
                RelayedHeader.exact(HeaderNames.create("X-Octets"), List.of("caf\u00e9")));
        Writes socket = new Writes();
        LeanAnswer answer = new LeanAnswer(socket, new LeanAnswer.Scratch(), false, false);
        fields.forEach(answer::header);
        answer.send();

        BufferData helidon = BufferData.growing(1024);
        fields.forEach(field -> field.writeHttp1Header(helidon));
        byte[] expected = new byte[helidon.available()];
        helidon.read(expected);
        assertThat(socket.writes.getFirst(), containsString(new String(expected, StandardCharsets.ISO_8859_1)));
        assertThat(socket.writes.getFirst(), containsString("X-Octets: caf\u00e9\r\n"));
    }

    @Test
    void answersTakeTurnsWithOneBufferAndNothingOfOneShowsInTheNext() throws Exception {
        Writes socket = new Writes();
        LeanAnswer.Scratch scratch = new LeanAnswer.Scratch();
        LeanAnswer first = new LeanAnswer(socket, scratch, false, false);
        first.header(HeaderNames.create("X-First"), "only-here");
        first.send(ascii("the first answer's body"));
        LeanAnswer second = new LeanAnswer(socket, scratch, false, false);
        OutputStream body = second.outputStream();
        body.write(ascii("2nd"));
        body.close();

        assertThat(socket.writes, hasSize(2));
        assertThat(socket.writes.get(1), not(containsString("X-First")));
        assertThat(socket.writes.get(1), not(containsString("first answer")));
        assertThat(socket.writes.get(1), endsWith("\r\n\r\n3\r\n2nd\r\n0\r\n\r\n"));
        assertThat("one buffer for both", socket.buffers.get(1), sameInstance(socket.buffers.get(0)));
    }

    @Test
    void aScratchGivenBackIsTheOneTheThreadsNextRequestBorrowsWithNoFieldOfTheLastAnswer() throws Exception {
        Writes socket = new Writes();
        LeanAnswer.Scratch scratch = LeanAnswer.Scratch.borrow();
        LeanAnswer first = new LeanAnswer(socket, scratch, false, false);
        first.header(HeaderNames.create("X-First"), "only-here");
        first.send(ascii("one"));
        scratch.giveBack();

        LeanAnswer.Scratch next = LeanAnswer.Scratch.borrow();
        assertThat(next, sameInstance(scratch));
        assertThat("a spare is lent to one request at a time", LeanAnswer.Scratch.borrow(), not(sameInstance(next)));
        new LeanAnswer(socket, next, false, false).send(ascii("two"));
        assertThat(socket.writes.get(1), not(containsString("X-First")));
        assertThat(socket.buffers.get(1), sameInstance(socket.buffers.get(0)));
        next.giveBack();
    }

    @Test
    void aBufferGrownByALargeAnswerIsNotKeptForTheNextAnswers() throws Exception {
        Writes socket = new Writes();
        LeanAnswer.Scratch scratch = new LeanAnswer.Scratch();
        new LeanAnswer(socket, scratch, false, false).send(new byte[LeanAnswer.Scratch.KEPT + 1]);
        new LeanAnswer(socket, scratch, false, false).send(ascii("small"));
        new LeanAnswer(socket, scratch, false, false).send(ascii("small"));

        assertThat(socket.buffers.get(1), not(sameInstance(socket.buffers.get(0))));
        assertThat(socket.buffers.get(2), sameInstance(socket.buffers.get(1)));
    }

    @Test
    void heldBytesGoOutOnceTheyFillTheHoldWithoutWaitingForAFlush() throws Exception {
        Writes socket = new Writes();
        OutputStream body = new LeanAnswer(socket, new LeanAnswer.Scratch(), false, false).outputStream();

        body.write(new byte[LeanAnswer.HOLD_LIMIT]);

        assertThat(socket.writes, hasSize(1));
    }

    @Test
    void anHttp10ClientGetsABodyOfUnknownLengthUnchunkedEndedByTheClose() throws Exception {
        Writes socket = new Writes();
        LeanAnswer answer = new LeanAnswer(socket, new LeanAnswer.Scratch(), false, true);
        OutputStream body = answer.outputStream();

        body.write(ascii("hello"));
        body.close();

        String sent = String.join("", socket.writes);
        assertThat(sent, containsString("Connection: close\r\n"));
        assertThat(sent, not(containsString("Transfer-Encoding")));
        assertThat(sent, endsWith("\r\n\r\nhello"));
        assertThat(answer.closes(), is(true));
    }

    @Test
    void anHttp10ClientThatAskedToKeepTheConnectionKeepsItWhenTheLengthIsKnown() throws Exception {
        Writes socket = new Writes();
        LeanAnswer answer = new LeanAnswer(socket, new LeanAnswer.Scratch(), false, true);
        answer.header(HeaderNames.CONTENT_LENGTH, "5");
        OutputStream body = answer.outputStream();

        body.write(ascii("hello"));
        body.close();

        assertThat(socket.writes, contains(containsString("Connection: keep-alive\r\n")));
        assertThat(answer.closes(), is(false));
    }
}
