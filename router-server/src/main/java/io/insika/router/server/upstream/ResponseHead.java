package io.insika.router.server.upstream;

import java.io.IOException;
import java.net.ProtocolException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.List;

import io.helidon.http.Header;
import io.helidon.http.HeaderName;
import io.helidon.http.HeaderNames;
import io.helidon.http.HeaderValues;

/**
 * A backend's status line and headers (RFC 9112, sections 4 and 5), parsed from the
 * connection's buffer and validated whole before a byte of it can reach a client: a head that
 * is not exactly what the grammar allows is a {@link ProtocolException}, which the router
 * answers with 502. Interim (1xx) answers are read past, at most {@link #MAX_INTERIM} of them:
 * the client gets the final one.
 *
 * <p>What is refused: a status line other than {@code HTTP/1.0} or {@code HTTP/1.1}, three
 * digits and an optional reason; a field name that is not a token or is followed by
 * whitespace; obs-fold; a control character (NUL, a bare CR, DEL...) anywhere but HTAB in a
 * value; a head over {@link #MAX_HEAD_BYTES} or {@link #MAX_FIELDS} fields. Lines may end in a
 * bare LF (RFC 9112, section 2.2): the router writes its own head to the client, so that
 * leniency cannot reach anyone else. Octets 0x80 to 0xFF (obs-text) are kept exactly.
 *
 * <p>Why not Helidon's {@code Http1HeadersParser}: it decodes values as US-ASCII, so obs-text
 * would reach the client as {@code ?}; it needs a {@code DataReader} over the connection where
 * the body is then read from this buffer; and the checks here run in the one pass that finds the
 * line ends anyway. The rules are Helidon's {@code Header.validate()} and more (whitespace
 * before the colon, bare CR), and Helidon validates the head once more as it writes it.
 *
 * @param status    the status code
 * @param headers   the header fields in the order received, hop-by-hop ones included
 * @param keepAlive whether the connection may carry another request after this answer
 */
public record ResponseHead(int status, List<Header> headers, boolean keepAlive) {

    /** Longest status line plus headers accepted from a backend. */
    static final int MAX_HEAD_BYTES = 64 * 1024;
    /** Most header fields accepted in one head. */
    static final int MAX_FIELDS = 256;
    /** Most interim answers accepted before the final one. */
    static final int MAX_INTERIM = 16;

    // the names answers carry most
    private static final KnownNames COMMON = KnownNames.of(HeaderNames.CONTENT_TYPE, HeaderNames.CONTENT_LENGTH,
            HeaderNames.DATE, HeaderNames.SERVER, HeaderNames.CONNECTION, HeaderNames.TRANSFER_ENCODING,
            HeaderNames.CACHE_CONTROL, HeaderNames.SET_COOKIE, HeaderNames.ETAG, HeaderNames.LAST_MODIFIED,
            HeaderNames.VARY, HeaderNames.CONTENT_ENCODING, HeaderNames.ACCEPT_RANGES, HeaderNames.EXPIRES,
            HeaderNames.LOCATION);
    private static final byte[] HTTP_1 = "HTTP/1.".getBytes(StandardCharsets.ISO_8859_1);

    /**
     * Reads the final answer's head.
     *
     * @throws java.io.EOFException if the backend closed the connection first
     * @throws ProtocolException    if the head is not valid HTTP/1.x, or too large
     */
    static ResponseHead read(WireInput input) throws IOException {
        for (int interim = 0; ; interim++) {
            ResponseHead head = readOne(input);
            if (head.status >= 200 || head.status == 101) {
                return head;
            }
            if (interim == MAX_INTERIM) {
                throw new ProtocolException("more than " + MAX_INTERIM + " interim answers");
            }
        }
    }

    private static ResponseHead readOne(WireInput input) throws IOException {
        LineReader lines = new LineReader(input);
        lines.next(); // the status line; an empty one fails its check below
        int status = parseStatusLine(lines);
        boolean http11 = lines.bytes[lines.start + 7] == '1';
        List<Header> headers = new ArrayList<>(12);
        boolean closeAsked = false;
        boolean keepAliveAsked = false;
        while (lines.next()) {
            if (headers.size() == MAX_FIELDS) {
                throw new ProtocolException("more than " + MAX_FIELDS + " header fields");
            }
            Header header = parseField(lines);
            headers.add(header);
            if (header.headerName().equals(HeaderNames.CONNECTION)) {
                closeAsked |= HttpSyntax.hasToken(header.get(), "close");
                keepAliveAsked |= HttpSyntax.hasToken(header.get(), "keep-alive");
            }
        }
        // an HTTP/1.0 connection is kept only when asked; close wins over keep-alive
        boolean close = closeAsked || !http11 && !keepAliveAsked;
        return new ResponseHead(status, Collections.unmodifiableList(headers), !close);
    }

    // status-line = HTTP-version SP status-code SP [ reason-phrase ]; a missing last SP is taken too
    private static int parseStatusLine(LineReader line) throws ProtocolException {
        byte[] b = line.bytes;
        int at = line.start;
        int length = line.end - at;
        if (length < 12 || !Arrays.equals(b, at, at + HTTP_1.length, HTTP_1, 0, HTTP_1.length)
                || (b[at + 7] != '0' && b[at + 7] != '1') || b[at + 8] != ' ' || (length > 12 && b[at + 12] != ' ')) {
            throw new ProtocolException("not an HTTP/1.x status line: " + HttpSyntax.printable(line.text()));
        }
        int status = 0;
        for (int i = at + 9; i < at + 12; i++) {
            int c = b[i];
            if (c < '0' || c > '9') {
                throw new ProtocolException("bad status code: " + HttpSyntax.printable(line.text()));
            }
            status = status * 10 + (c - '0');
        }
        if (status < 100) {
            throw new ProtocolException("bad status code: " + HttpSyntax.printable(line.text()));
        }
        for (int i = at + 13; i < line.end; i++) {
            if (!HttpSyntax.isFieldValueChar(b[i] & 0xff)) {
                throw new ProtocolException("control character in the reason phrase: "
                        + HttpSyntax.printable(line.text()));
            }
        }
        return status;
    }

    private static Header parseField(LineReader line) throws ProtocolException {
        byte[] b = line.bytes;
        int colon = fieldColon(b, line.start, line.end);
        if (colon < 0) {
            throw new ProtocolException("malformed header line: " + HttpSyntax.printable(line.text()));
        }
        int from = colon + 1;
        int to = line.end;
        while (from < to && (b[from] == ' ' || b[from] == '\t')) {
            from++;
        }
        while (to > from && (b[to - 1] == ' ' || b[to - 1] == '\t')) {
            to--;
        }
        return HeaderValues.create(COMMON.name(b, line.start, colon),
                new String(b, from, to - from, StandardCharsets.ISO_8859_1));
    }

    /**
     * field-line = field-name ":" OWS field-value OWS: a token right before the colon (so no
     * obs-fold, no whitespace or other non-token character in the name), no control character
     * but HTAB in the value.
     *
     * @return the colon's index, or -1 if bytes[start, end) is not a field line
     */
    private static int fieldColon(byte[] bytes, int start, int end) {
        int colon = start;
        while (colon < end && HttpSyntax.isTokenChar(bytes[colon])) {
            colon++;
        }
        if (colon == start || colon == end || bytes[colon] != ':') {
            return -1;
        }
        for (int i = colon + 1; i < end; i++) {
            if (!HttpSyntax.isFieldValueChar(bytes[i] & 0xff)) {
                return -1;
            }
        }
        return colon;
    }

    /** {@link #fieldColon}'s rule for a line read as ISO-8859-1 text: trailer fields are held to it too. */
    static boolean isFieldLine(String line) {
        byte[] bytes = new byte[line.length()];
        for (int i = 0; i < bytes.length; i++) {
            char c = line.charAt(i);
            if (c > 0xff) {
                return false;
            }
            bytes[i] = (byte) c;
        }
        return fieldColon(bytes, 0, bytes.length) >= 0;
    }

    /** The values of the fields of one name, as received: used for the framing headers. */
    public List<String> values(String lowerCaseName) {
        // asked a few times per answer: no list is made for a name that is absent, and no iterator
        List<String> values = List.of();
        for (int i = 0; i < headers.size(); i++) {
            Header header = headers.get(i);
            if (header.headerName().lowerCase().equals(lowerCaseName)) {
                if (values.isEmpty()) {
                    values = List.of(header.get());
                } else {
                    values = new ArrayList<>(values);
                    values.add(header.get());
                }
            }
        }
        return values;
    }

    // Lines end in LF, with the CR before it if there is one. A line wholly in the connection's
    // buffer (nearly always) is parsed where it lies; one split across reads is gathered first.
    // Bytes are taken as ISO-8859-1, so every octet of a field value survives to the client.
    private static final class LineReader {
        private final WireInput input;
        private int total;
        private byte[] gathered;
        // the current line, without its CR LF: bytes[start, end)
        byte[] bytes;
        int start;
        int end;

        LineReader(WireInput input) {
            this.input = input;
        }

        /** Reads the next line; false when it is the empty line that ends the head. */
        boolean next() throws IOException {
            int length = 0;
            while (true) {
                input.require();
                byte[] buffer = input.buffer();
                int from = input.position();
                int limit = input.limit();
                int lf = from;
                while (lf < limit && buffer[lf] != '\n') {
                    lf++;
                }
                int taken = lf - from;
                total += taken + (lf < limit ? 1 : 0);
                if (total > MAX_HEAD_BYTES) {
                    throw new ProtocolException("response head longer than " + MAX_HEAD_BYTES + " bytes");
                }
                if (lf < limit && length == 0) {
                    bytes = buffer;
                    start = from;
                    end = lf;
                    input.consume(taken + 1);
                    break;
                }
                if (gathered == null) {
                    gathered = new byte[Math.max(256, taken)];
                } else if (gathered.length < length + taken) {
                    gathered = Arrays.copyOf(gathered, Math.max(length + taken, 2 * gathered.length));
                }
                System.arraycopy(buffer, from, gathered, length, taken);
                length += taken;
                if (lf < limit) {
                    input.consume(taken + 1);
                    bytes = gathered;
                    start = 0;
                    end = length;
                    break;
                }
                input.consume(taken);
            }
            // A CR left elsewhere in the line is a control character, which the status line and
            // field checks refuse
            if (end > start && bytes[end - 1] == '\r') {
                end--;
            }
            return end > start;
        }

        /** The line as text, for an error message. */
        String text() {
            return new String(bytes, start, end - start, StandardCharsets.ISO_8859_1);
        }
    }
}
