package io.insika.router.server.upstream;

import java.io.EOFException;
import java.io.Flushable;
import java.io.IOException;
import java.io.InputStream;
import java.net.ProtocolException;
import java.util.List;
import java.util.Locale;
import java.util.OptionalLong;

/**
 * A backend answer's body, decoded from its HTTP/1.1 framing (RFC 9112, section 6.3): a
 * Content-Length, chunked transfer coding, or everything until the backend closes. Reads come
 * straight from the connection's buffer; nothing is held beyond it.
 *
 * <p>Framing is read strictly, since a mistake here would hand the rest of one answer to the
 * next request on the connection: a {@code Transfer-Encoding} other than {@code chunked}, a
 * {@code Content-Length} that is not digits or disagrees with itself, a chunk size that is not
 * 1 to 15 hex digits, chunk data not followed by its line end, are all a
 * {@link ProtocolException}. An answer with both {@code Transfer-Encoding} and
 * {@code Content-Length} is read as chunked (section 6.3, rule 3) and its connection is never
 * reused.
 */
public final class ResponseBody extends InputStream {

    private static final int MAX_CHUNK_LINE = 4096;
    private static final int MAX_TRAILER_BYTES = ResponseHead.MAX_HEAD_BYTES;

    private enum Framing { NONE, LENGTH, CHUNKED, UNTIL_CLOSE }

    private final WireInput input;
    private final Framing framing;
    private final long length;
    private final boolean reusable;
    private long remaining;
    private boolean complete;
    private Flushable beforeWait;

    private ResponseBody(WireInput input, Framing framing, long length, boolean reusable) {
        this.input = input;
        this.framing = framing;
        this.length = length;
        this.reusable = reusable;
        this.remaining = framing == Framing.LENGTH ? length : 0;
        this.complete = framing == Framing.NONE || (framing == Framing.LENGTH && length == 0);
    }

    /**
     * The body that follows the head.
     *
     * @param bodiless whether the answer has no body whatever its headers say (HEAD, 1xx, 204, 304)
     * @throws ProtocolException if the framing headers are invalid or contradict each other
     */
    static ResponseBody of(WireInput input, ResponseHead head, boolean bodiless) throws ProtocolException {
        List<String> codings = head.values("transfer-encoding");
        List<String> lengths = head.values("content-length");
        if (bodiless) {
            return new ResponseBody(input, Framing.NONE, 0, true);
        }
        if (!codings.isEmpty()) {
            if (!isChunkedOnly(codings)) {
                throw new ProtocolException("unsupported Transfer-Encoding " + codings);
            }
            return new ResponseBody(input, Framing.CHUNKED, -1, lengths.isEmpty());
        }
        if (lengths.isEmpty()) {
            return new ResponseBody(input, Framing.UNTIL_CLOSE, -1, false);
        }
        return new ResponseBody(input, Framing.LENGTH, declaredLength(lengths), true);
    }

    /** Whether an answer of this status ends with its head (RFC 9112, section 6.3): 1xx, 204, 304. */
    public static boolean bodiless(int code) {
        return code < 200 || code == 204 || code == 304;
    }

    /**
     * The one length a list of Content-Length fields declares ({@code 5} and {@code 5, 5} alike).
     *
     * @throws ProtocolException if a value is not digits, or they disagree
     */
    public static long declaredLength(List<String> fields) throws ProtocolException {
        long length = -1;
        for (String field : fields) {
            for (String value : field.split(",", -1)) {
                long parsed = parseLength(value.strip());
                if (length >= 0 && parsed != length) {
                    throw new ProtocolException("conflicting Content-Length values " + fields);
                }
                length = parsed;
            }
        }
        return length;
    }

    private static boolean isChunkedOnly(List<String> codings) {
        int chunked = 0;
        for (String field : codings) {
            for (String coding : field.split(",", -1)) {
                String name = coding.strip().toLowerCase(Locale.ROOT);
                if (!name.equals("chunked")) {
                    return false;
                }
                chunked++;
            }
        }
        return chunked == 1;
    }

    private static long parseLength(String value) throws ProtocolException {
        long length = HttpSyntax.length(value);
        if (length < 0) {
            throw new ProtocolException("bad Content-Length [" + HttpSyntax.printable(value) + "]");
        }
        return length;
    }

    /**
     * Called whenever a read is about to wait for the backend: whatever was read before reaches
     * the client then, so a body of any framing arrives as it was sent.
     */
    public void beforeWaiting(Flushable flush) {
        this.beforeWait = flush;
    }

    /**
     * The answer is a stream whose head reached the client (an event stream): the backend may
     * now stay silent up to the stream idle timeout rather than the backend timeout.
     */
    public void becomeStream() {
        input.becomeStream();
    }

    /** The body's length when the backend declared it. */
    public OptionalLong declaredLength() {
        return framing == Framing.LENGTH ? OptionalLong.of(length) : OptionalLong.empty();
    }

    /** Whether there is no body to read: a bodiless answer, or a Content-Length of 0. */
    public boolean isEmpty() {
        return framing == Framing.NONE || (framing == Framing.LENGTH && length == 0);
    }

    /** Whether the body was read to its end, by its framing or by the backend closing. */
    public boolean ended() {
        return complete;
    }

    /** Whether the body was read to its framed end and the framing allows another answer after it. */
    public boolean complete() {
        return complete && reusable;
    }

    @Override
    public int read() throws IOException {
        byte[] one = new byte[1];
        return read(one, 0, 1) < 0 ? -1 : one[0] & 0xff;
    }

    @Override
    public int read(byte[] target, int offset, int count) throws IOException {
        if (count == 0) {
            return 0;
        }
        return switch (framing) {
            case NONE -> -1;
            case LENGTH -> readCounted(target, offset, count);
            case CHUNKED -> readChunked(target, offset, count);
            case UNTIL_CLOSE -> readToClose(target, offset, count);
        };
    }

    private boolean more() throws IOException {
        if (!input.buffered() && beforeWait != null) {
            beforeWait.flush();
        }
        return input.fill();
    }

    private void need() throws IOException {
        if (!more()) {
            throw new EOFException("backend closed the connection mid-answer");
        }
    }

    private int readCounted(byte[] target, int offset, int count) throws IOException {
        if (remaining == 0) {
            complete = true;
            return -1;
        }
        if (!more()) {
            throw new EOFException("backend closed with " + remaining + " of " + length + " body bytes unsent");
        }
        int n = copy(target, offset, (int) Math.min(count, remaining));
        remaining -= n;
        if (remaining == 0) {
            complete = true;
        }
        return n;
    }

    private int readChunked(byte[] target, int offset, int count) throws IOException {
        if (complete) {
            return -1;
        }
        if (remaining == 0) {
            long size = nextChunkSize();
            if (size == 0) {
                skipTrailers();
                complete = true;
                return -1;
            }
            remaining = size;
        }
        need();
        int n = copy(target, offset, (int) Math.min(count, remaining));
        remaining -= n;
        if (remaining == 0 && !line().isEmpty()) {
            throw new ProtocolException("chunk data longer than its size");
        }
        return n;
    }

    private int readToClose(byte[] target, int offset, int count) throws IOException {
        if (!more()) {
            complete = true;
            return -1;
        }
        return copy(target, offset, count);
    }

    private int copy(byte[] target, int offset, int count) {
        int n = Math.min(count, input.limit() - input.position());
        System.arraycopy(input.buffer(), input.position(), target, offset, n);
        input.consume(n);
        return n;
    }

    // chunk-size [ chunk-ext ] CRLF (RFC 9112, section 7.1); chunk-size = 1*HEXDIG, no sign, no 0x
    private long nextChunkSize() throws IOException {
        String line = line();
        long size = HttpSyntax.chunkSize(line);
        if (size < 0) {
            throw new ProtocolException("bad chunk size line [" + HttpSyntax.printable(line) + "]");
        }
        return size;
    }

    // Trailer fields end the body; they are checked like header fields and not relayed (the
    // answer to the client has its own framing).
    private void skipTrailers() throws IOException {
        int total = 0;
        for (String line = line(); !line.isEmpty(); line = line()) {
            total += line.length() + 2;
            if (total > MAX_TRAILER_BYTES || !ResponseHead.isFieldLine(line)) {
                throw new ProtocolException("bad or oversized trailer section");
            }
        }
    }

    // A line ends in LF, with or without the CR before it; a CR anywhere else is refused.
    private String line() throws IOException {
        StringBuilder line = new StringBuilder();
        while (true) {
            need();
            byte b = input.buffer()[input.position()];
            input.consume(1);
            if (b == '\n') {
                int last = line.length() - 1;
                return last >= 0 && line.charAt(last) == '\r' ? line.substring(0, last) : line.toString();
            }
            if (line.length() >= MAX_CHUNK_LINE) {
                throw new ProtocolException("chunk line longer than " + MAX_CHUNK_LINE + " bytes");
            }
            if (line.length() > 0 && line.charAt(line.length() - 1) == '\r') {
                throw new ProtocolException("bare CR in a chunk line");
            }
            line.append((char) (b & 0xff));
        }
    }
}
