package io.insika.router.server.upstream;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

import com.code_intelligence.jazzer.api.FuzzedDataProvider;
import com.code_intelligence.jazzer.junit.FuzzTest;
import io.helidon.http.Header;
import io.insika.router.server.testing.Http1Messages;

import static org.hamcrest.MatcherAssert.assertThat;
import static org.hamcrest.Matchers.is;

/**
 * Fuzz tests of the router's own HTTP/1.1 code, the parts a hostile peer reaches: the parser of
 * backend answers and the writer of forwarded requests. {@code ./mvnw verify} runs them in
 * regression mode, over the committed inputs under {@code src/test/resources/.../Http1FuzzTestInputs};
 * to fuzz for real, each target for five minutes (Jazzer's default {@code maxDuration}):
 * <pre>
 * JAZZER_FUZZ=1 ./mvnw -B -pl router-server test -Dtest=Http1FuzzTest
 * </pre>
 * The corpus it grows goes to {@code router-server/.cifuzz-corpus} (not committed); a finding
 * goes to the inputs directory: commit it with the fix, and it stays a regression test.
 */
class Http1FuzzTest {

    /**
     * Whatever a backend sends, the parser either refuses it with an IOException or yields a head
     * whose every field is valid as it stands and a body that reads to an end: never another
     * exception, never a control character or a line break in what would be relayed.
     */
    @FuzzTest
    void anyBackendAnswerParsesWholeOrIsRefused(byte[] data) {
        if (data.length == 0) {
            return;
        }
        ArrayInput input = new ArrayInput(Arrays.copyOfRange(data, 1, data.length), 1 + (data[0] & 0x0f));
        try {
            ResponseHead head = ResponseHead.read(input);
            assertThat(head.status() >= 100 && head.status() <= 999, is(true));
            for (Header header : head.headers()) {
                assertThat(header.name(), HttpSyntax.isToken(header.name()), is(true));
                String value = header.get();
                assertThat(value.chars().allMatch(HttpSyntax::isFieldValueChar), is(true));
                assertThat(value.isEmpty() || (value.charAt(0) > ' ' && value.charAt(value.length() - 1) > ' '), is(true));
            }
            boolean head204 = (data[0] & 0x10) != 0;
            ResponseBody body = ResponseBody.of(input, head, head204 || head.status() == 204 || head.status() == 304);
            byte[] buffer = new byte[1 + (data[0] & 0x3f)];
            long total = 0;
            for (int n = body.read(buffer); n >= 0; n = body.read(buffer)) {
                total += n;
            }
            if (body.declaredLength().isPresent()) {
                assertThat(total, is(body.declaredLength().getAsLong()));
            }
        } catch (IOException e) {
            // refused: the router answers 502, or cuts an answer already started
        }
    }

    /**
     * Whatever the router is asked to write, the writer either refuses it before a byte leaves, or
     * writes exactly one request that a strict and a lenient reader parse alike, with its body.
     */
    @FuzzTest
    void anyRequestIsWrittenAsOneUnambiguousMessageOrRefused(FuzzedDataProvider data) {
        String method = data.consumeString(8);
        String target = "/" + data.consumeString(40);
        List<String[]> fields = new ArrayList<>();
        int count = data.consumeInt(0, 6);
        for (int i = 0; i < count; i++) {
            fields.add(new String[] {data.consumeString(12), data.consumeString(24)});
        }
        int framing = data.consumeInt(0, 2);
        byte[] body = data.consumeBytes(200);
        ArrayOutput output = new ArrayOutput();
        RequestWriter writer = new RequestWriter(output);
        try {
            writer.requestLine(method, target);
            writer.header("Host", "backend");
            for (String[] field : fields) {
                writer.header(field[0], field[1]);
            }
        } catch (IllegalArgumentException e) {
            assertThat("refused before anything left", output.bytes().length, is(0));
            return;
        }
        try {
            writer.endHead(framing == 0 ? RequestWriter.NO_BODY : framing == 1 ? body.length : RequestWriter.CHUNKED);
            if (framing != 0) {
                writer.write(body, 0, body.length);
            }
            writer.finish();
        } catch (IOException e) {
            throw new AssertionError("a body of its declared length was refused", e);
        }
        byte[] written = output.bytes();
        Http1Messages.Reading strict = Http1Messages.requests(written, true);
        Http1Messages.Reading lenient = Http1Messages.requests(written, false);
        assertThat(lenient.describe(), is(strict.describe()));
        assertThat(strict.describe(), strict.cleanEnd() && strict.messages().size() == 1, is(true));
        assertThat(Arrays.equals(strict.messages().getFirst().body(), framing == 0 ? new byte[0] : body), is(true));
    }

    /** Bytes arriving a few at a time, as a socket delivers them. */
    static final class ArrayInput implements WireInput {
        private final byte[] data;
        private final int step;
        private final byte[] buffer = new byte[16];
        private int taken;
        private int position;
        private int limit;

        ArrayInput(byte[] data, int step) {
            this.data = data;
            this.step = step;
        }

        @Override
        public boolean fill() {
            if (position < limit) {
                return true;
            }
            int n = Math.min(Math.min(step, buffer.length), data.length - taken);
            if (n <= 0) {
                return false;
            }
            System.arraycopy(data, taken, buffer, 0, n);
            taken += n;
            position = 0;
            limit = n;
            return true;
        }

        @Override
        public void require() throws IOException {
            if (!fill()) {
                throw new java.io.EOFException();
            }
        }

        @Override
        public byte[] buffer() {
            return buffer;
        }

        @Override
        public int position() {
            return position;
        }

        @Override
        public int limit() {
            return limit;
        }

        @Override
        public void consume(int count) {
            position += count;
        }
    }

    /** Collects what a writer sends. */
    static final class ArrayOutput implements WireOutput {
        private final ByteArrayOutputStream out = new ByteArrayOutputStream();
        private final byte[] scratch = new byte[64];

        @Override
        public void write(byte[] bytes, int offset, int length) {
            out.write(bytes, offset, length);
        }

        @Override
        public void flush() {
        }

        @Override
        public byte[] writeBuffer() {
            return scratch;
        }

        @Override
        public void startExchange() {
        }

        @Override
        public void requestSent() {
        }

        @Override
        public long bytesSent() {
            return out.size();
        }

        byte[] bytes() {
            return out.toByteArray();
        }
    }
}
