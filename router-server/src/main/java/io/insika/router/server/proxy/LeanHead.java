package io.insika.router.server.proxy;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.function.Supplier;

import io.helidon.common.uri.UriValidator;
import io.helidon.http.HeaderName;
import io.helidon.http.HeaderNames;
import io.helidon.http.HttpPrologue;
import io.helidon.http.Method;
import io.helidon.http.ServerRequestHeaders;
import io.insika.router.server.upstream.HttpSyntax;
import io.insika.router.server.upstream.KnownNames;

/**
 * A request head in the strict subset the lean connection frames itself, or {@code null}: an
 * origin-form HTTP/1.1 or HTTP/1.0 request line with an ordinary method, each field a token, a
 * colon and a visible value, exactly one {@code Host} (at most one on HTTP/1.0, which may have
 * none), at most one all-digit {@code Content-Length} or else at most one
 * {@code Transfer-Encoding: chunked} (HTTP/1.1 only), and no {@code Upgrade}, {@code Expect}
 * (dropped from an HTTP/1.0 head, as {@code HTTP2-Settings}: HTTP/1.0 has neither),
 * or {@code Connection} other than {@code keep-alive} or {@code close}. It only has to accept what is certainly valid: any other HTTP/1.1 head goes to
 * Helidon's parser, which reads the same bytes; any other HTTP/1.0 head is refused (Helidon
 * serves no HTTP/1.0).
 *
 * @param prologue      the request line
 * @param headers       the fields
 * @param contentLength the body's length; 0 without one, -1 for a chunked body
 * @param close         whether the connection closes after the answer: the client asked, or it
 *                      speaks HTTP/1.0 and did not ask to keep it alive
 * @param http10        whether the request is HTTP/1.0: its answer is never chunked
 */
record LeanHead(HttpPrologue prologue, ServerRequestHeaders headers, long contentLength, boolean close,
                boolean http10) {

    // the names requests carry most
    private static final KnownNames COMMON = KnownNames.of(HeaderNames.HOST, HeaderNames.CONTENT_TYPE,
            HeaderNames.CONTENT_LENGTH, HeaderNames.USER_AGENT, HeaderNames.ACCEPT, HeaderNames.ACCEPT_ENCODING,
            HeaderNames.CONNECTION, HeaderNames.AUTHORIZATION, HeaderNames.COOKIE, HeaderNames.ACCEPT_LANGUAGE,
            HeaderNames.TRANSFER_ENCODING, HeaderNames.CACHE_CONTROL, HeaderNames.ORIGIN, HeaderNames.REFERER,
            HeaderNames.X_FORWARDED_FOR);
    private static final Method[] METHODS = {Method.GET, Method.POST, Method.PUT, Method.PATCH, Method.DELETE,
        Method.HEAD, Method.OPTIONS};
    private static final byte[][] METHOD_SPELLINGS = Arrays.stream(METHODS)
            .map(method -> method.text().getBytes(StandardCharsets.US_ASCII)).toArray(byte[][]::new);
    private static final byte[] VERSION = "HTTP/1.1\r\n".getBytes(StandardCharsets.US_ASCII);
    private static final byte[] VERSION_10 = "HTTP/1.0\r\n".getBytes(StandardCharsets.US_ASCII);

    /**
     * @param b   the head's bytes, the request line to the empty line's CRLF
     * @param end where the head ends (just past its last CRLF)
     * @param own a path Helidon's routing answers itself (the router's {@code /up}): left to it
     *            on HTTP/1.1, the caller's to answer on HTTP/1.0
     * @param authority the {@code Host} an HTTP/1.0 request without one is forwarded with: the
     *            address the client reached
     */
    static LeanHead parse(byte[] b, int end, String own, Supplier<String> authority) {
        int sp = indexOf(b, 0, end, (byte) ' ');
        if (sp <= 0) {
            return null;
        }
        Method method = method(b, sp);
        if (method == null) {
            return null;
        }
        int target = sp + 1;
        int sp2 = target;
        while (sp2 < end && HttpSyntax.isTargetChar(b[sp2])) {
            sp2++;
        }
        if (b[target] != '/' || sp2 >= end || b[sp2] != ' ') {
            return null;
        }
        boolean http10 = isVersion(b, sp2 + 1, end, VERSION_10);
        if (!http10 && !isVersion(b, sp2 + 1, end, VERSION)) {
            return null;
        }
        String path = new String(b, target, sp2 - target, StandardCharsets.US_ASCII);
        if (path.indexOf('#') >= 0) {
            return null; // a fragment has no place in a request
        }
        HttpPrologue prologue;
        try {
            // as Helidon's Http1Prologue makes it, with its path and query validation
            prologue = http10 ? HttpPrologue.create("HTTP/1.0", "HTTP", "1.0", method, path, true)
                    : HttpPrologue.create("HTTP/1.1", "HTTP", "1.1", method, path, true);
            UriValidator.validateQuery(prologue.query().rawValue());
            if (!http10 && prologue.uriPath().path().equals(own)) { // decoded, as Helidon's routing matches it
                return null;
            }
        } catch (IllegalArgumentException invalid) {
            return null;
        }
        LeanFields headers = new LeanFields();
        int hosts = 0;
        long length = -1;
        boolean close = false;
        boolean keepAlive = false;
        boolean chunked = false;
        int line = sp2 + 11; // " HTTP/1.1\r\n"
        while (line < end - 2) {
            int colon = line;
            while (colon < end && HttpSyntax.isTokenChar(b[colon])) {
                colon++;
            }
            if (colon == line || colon >= end || b[colon] != ':') {
                return null;
            }
            int value = colon + 1;
            while (value < end && (b[value] == ' ' || b[value] == '\t')) {
                value++;
            }
            int valueEnd = value;
            // field value characters without obs-text: a CR, a NUL or an octet above 0x7E ends it
            while (valueEnd < end && b[valueEnd] >= 0 && HttpSyntax.isFieldValueChar(b[valueEnd])) {
                valueEnd++;
            }
            if (valueEnd + 1 >= end || b[valueEnd] != '\r' || b[valueEnd + 1] != '\n') {
                return null;
            }
            int next = valueEnd + 2;
            while (valueEnd > value && (b[valueEnd - 1] == ' ' || b[valueEnd - 1] == '\t')) {
                valueEnd--;
            }
            HeaderName name = COMMON.name(b, line, colon);
            String text = new String(b, value, valueEnd - value, StandardCharsets.US_ASCII);
            switch (name.lowerCase()) {
                case "host" -> {
                    if (!isHost(text)) {
                        return null;
                    }
                    hosts++;
                }
                case "content-length" -> {
                    if (length >= 0) {
                        return null;
                    }
                    length = HttpSyntax.length(text);
                    if (length < 0) {
                        return null;
                    }
                }
                case "connection" -> {
                    if (text.equalsIgnoreCase("close")) {
                        close = true;
                    } else if (text.equalsIgnoreCase("keep-alive")) {
                        keepAlive = true;
                    } else {
                        return null;
                    }
                }
                case "transfer-encoding" -> {
                    if (chunked || http10 || !text.equalsIgnoreCase("chunked")) {
                        return null;
                    }
                    chunked = true;
                }
                // HTTP/1.0 has neither: a server ignores its Upgrade and its 100-continue (RFC 9110,
                // 7.8 and 10.1.1), and nginx's HTTP/1.0 upstream requests carry a client's h2c
                // offer's HTTP2-Settings, its Upgrade and Connection dropped
                case "upgrade", "expect", "http2-settings" -> {
                    if (!http10) {
                        return null; // protocol switches: Helidon's
                    }
                    line = next;
                    continue;
                }
                // what Helidon itself sets from the TLS session
                case "x-helidon-cn" -> {
                    return null;
                }
                default -> {
                }
            }
            headers.add(name, text);
            line = next;
        }
        if (hosts > 1 || hosts == 0 && !http10 || line != end - 2 || chunked && length >= 0) {
            return null;
        }
        if (hosts == 0) {
            headers.add(HeaderNames.HOST, authority.get());
        }
        // HTTP/1.0 keeps a connection only when asked to (RFC 9112, section 9.3)
        return new LeanHead(prologue, headers, chunked ? -1 : Math.max(length, 0),
                close || http10 && !keepAlive, http10);
    }

    // an ordinary method, case-sensitive as methods are, or null
    private static Method method(byte[] b, int sp) {
        for (int i = 0; i < METHODS.length; i++) {
            if (Arrays.equals(b, 0, sp, METHOD_SPELLINGS[i], 0, METHOD_SPELLINGS[i].length)) {
                return METHODS[i];
            }
        }
        return null;
    }

    private static boolean isVersion(byte[] b, int at, int end, byte[] version) {
        return at + version.length <= end && Arrays.equals(b, at, at + version.length, version, 0, version.length);
    }

    /**
     * Whether the request line in these bytes (up to its LF, which must be among them) is an
     * HTTP/1.0 one: such a request is answered by the router or refused, never handed to Helidon.
     */
    static boolean isHttp10(byte[] b, int length) {
        int lf = indexOf(b, 0, length, (byte) '\n');
        return lf >= VERSION_10.length && isVersion(b, lf + 1 - VERSION_10.length, lf + 1, VERSION_10)
                && b[lf - VERSION_10.length] == ' ';
    }

    // A name or IPv4 address and an optional port: a subset of what Helidon's Host validation
    // accepts (an IP literal is left to it)
    private static boolean isHost(String text) {
        int colon = text.lastIndexOf(':');
        int nameEnd = colon < 0 ? text.length() : colon;
        if (nameEnd == 0 || colon == text.length() - 1 || text.length() - colon > 6 && colon >= 0) {
            return false;
        }
        for (int i = 0; i < nameEnd; i++) {
            char c = text.charAt(i);
            boolean ok = c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '.' || c == '-';
            if (!ok) {
                return false;
            }
        }
        return colon < 0 || HttpSyntax.length(text.substring(colon + 1)) >= 0;
    }

    private static int indexOf(byte[] b, int from, int to, byte x) {
        for (int i = from; i < to; i++) {
            if (b[i] == x) {
                return i;
            }
        }
        return -1;
    }
}
