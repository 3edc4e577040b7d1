package io.insika.router.server.proxy;

import java.io.IOException;
import java.net.ProtocolException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

import io.helidon.http.Header;
import io.helidon.http.HeaderNames;
import io.helidon.http.HeaderValues;

/**
 * A backend's status line and headers (RFC 9112, sections 4 and 5), parsed from the
 * connection's buffer, and what they say about the body's framing and the connection's reuse.
 * Interim (1xx) answers are read past: the client gets the final one.
 *
 * @param status    the status code
 * @param headers   the header fields in the order received, hop-by-hop ones included
 * @param keepAlive whether the connection may carry another request after this answer
 */
record ResponseHead(int status, List<Header> headers, boolean keepAlive) {

    /** Longest status line plus headers accepted from a backend. */
    static final int MAX_HEAD_BYTES = 64 * 1024;

    /**
     * Reads the final answer's head.
     *
     * @throws java.io.EOFException if the backend closed the connection first
     * @throws ProtocolException    if the head is not HTTP/1.x or too large
     */
    static ResponseHead read(BackendConnection connection) throws IOException {
        while (true) {
            ResponseHead head = readOne(connection);
            if (head.status >= 200 || head.status == 101) {
                return head;
            }
        }
    }

    private static ResponseHead readOne(BackendConnection connection) throws IOException {
        LineReader lines = new LineReader(connection);
        String statusLine = lines.next();
        // "HTTP/1.1 200 OK": the version, a space, three digits, then an optional reason.
        if (statusLine.length() < 12 || !statusLine.startsWith("HTTP/1.") || statusLine.charAt(8) != ' '
                || (statusLine.length() > 12 && statusLine.charAt(12) != ' ')) {
            throw new ProtocolException("not an HTTP/1.x status line: " + printable(statusLine));
        }
        int status = parseStatus(statusLine);
        boolean http11 = statusLine.charAt(7) == '1';
        List<Header> headers = new ArrayList<>(12);
        boolean close = !http11;
        for (String line = lines.next(); !line.isEmpty(); line = lines.next()) {
            int colon = line.indexOf(':');
            if (colon <= 0 || line.charAt(0) == ' ' || line.charAt(0) == '\t'
                    || Character.isWhitespace(line.charAt(colon - 1))) {
                // obs-fold, a missing colon or whitespace before it: RFC 9112 section 5 says reject
                throw new ProtocolException("malformed header line: " + printable(line));
            }
            String name = line.substring(0, colon);
            String value = line.substring(colon + 1).strip();
            Header header = HeaderValues.create(HeaderNames.create(name), value);
            headers.add(header);
            if (header.headerName().equals(HeaderNames.CONNECTION)) {
                String tokens = value.toLowerCase(Locale.ROOT);
                if (tokens.contains("close")) {
                    close = true;
                } else if (!http11 && tokens.contains("keep-alive")) {
                    close = false;
                }
            }
        }
        return new ResponseHead(status, List.copyOf(headers), !close);
    }

    private static int parseStatus(String statusLine) throws ProtocolException {
        int status = 0;
        for (int i = 9; i < 12; i++) {
            char c = statusLine.charAt(i);
            if (c < '0' || c > '9') {
                throw new ProtocolException("bad status code: " + printable(statusLine));
            }
            status = status * 10 + (c - '0');
        }
        if (status < 100) {
            throw new ProtocolException("bad status code: " + printable(statusLine));
        }
        return status;
    }

    private static String printable(String line) {
        String shown = line.length() > 80 ? line.substring(0, 80) + "..." : line;
        return shown.replaceAll("[^\\x20-\\x7e]", "?");
    }

    /** The header fields of one name: used for Content-Length and Transfer-Encoding. */
    List<String> values(String lowerCaseName) {
        List<String> values = new ArrayList<>(1);
        for (Header header : headers) {
            if (header.headerName().lowerCase().equals(lowerCaseName)) {
                values.add(header.get());
            }
        }
        return values;
    }

    // Lines end in CRLF; a bare LF is accepted as RFC 9112 section 2.2 allows. Bytes are taken
    // as ISO-8859-1, so every octet of a field value survives to the client.
    private static final class LineReader {
        private final BackendConnection connection;
        private int total;

        LineReader(BackendConnection connection) {
            this.connection = connection;
        }

        String next() throws IOException {
            StringBuilder line = null;
            while (true) {
                connection.require();
                byte[] buffer = connection.buffer();
                int start = connection.position();
                int end = connection.limit();
                int lf = start;
                while (lf < end && buffer[lf] != '\n') {
                    lf++;
                }
                int taken = lf - start;
                total += taken + (lf < end ? 1 : 0);
                if (total > MAX_HEAD_BYTES) {
                    throw new ProtocolException("response head longer than " + MAX_HEAD_BYTES + " bytes");
                }
                String part = new String(buffer, start, taken, StandardCharsets.ISO_8859_1);
                if (lf < end) {
                    connection.consume(taken + 1);
                    String whole = line == null ? part : line.append(part).toString();
                    return whole.endsWith("\r") ? whole.substring(0, whole.length() - 1) : whole;
                }
                connection.consume(taken);
                line = (line == null ? new StringBuilder() : line).append(part);
            }
        }
    }
}
