package io.insika.router.server.proxy;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;

import io.helidon.common.uri.UriValidator;
import io.helidon.http.HeaderName;
import io.helidon.http.HeaderNames;
import io.helidon.http.HeaderValues;
import io.helidon.http.HttpPrologue;
import io.helidon.http.Method;
import io.helidon.http.ServerRequestHeaders;
import io.helidon.http.WritableHeaders;
import io.insika.router.server.upstream.HttpSyntax;

/**
 * A request head in the strict subset the lean connection frames itself, or {@code null}: an
 * origin-form HTTP/1.1 request line with an ordinary method, each field a token, a colon and a
 * visible value, exactly one {@code Host}, at most one all-digit {@code Content-Length}, and no
 * {@code Transfer-Encoding}, {@code Upgrade}, {@code Expect}, or {@code Connection} other than
 * {@code keep-alive} or {@code close}. It only has to accept what is certainly valid: anything
 * else goes to Helidon's parser, which reads the same bytes.
 *
 * @param prologue      the request line
 * @param headers       the fields
 * @param contentLength the body's length; 0 without one
 * @param close         whether the client asked to close after the answer
 */
record LeanHead(HttpPrologue prologue, ServerRequestHeaders headers, long contentLength, boolean close) {

    private static final byte[] VERSION = "HTTP/1.1\r\n".getBytes(StandardCharsets.US_ASCII);

    /**
     * @param b   the head's bytes, the request line to the empty line's CRLF
     * @param end where the head ends (just past its last CRLF)
     * @param own a path Helidon's routing answers itself (the router's {@code /up}): left to it
     */
    static LeanHead parse(byte[] b, int end, String own) {
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
        if (b[target] != '/' || sp2 >= end || b[sp2] != ' ' || !isVersion(b, sp2 + 1, end)) {
            return null;
        }
        String path = new String(b, target, sp2 - target, StandardCharsets.US_ASCII);
        if (path.indexOf('#') >= 0) {
            return null; // a fragment has no place in a request
        }
        HttpPrologue prologue;
        try {
            // as Helidon's Http1Prologue makes it, with its path and query validation
            prologue = HttpPrologue.create("HTTP/1.1", "HTTP", "1.1", method, path, true);
            UriValidator.validateQuery(prologue.query().rawValue());
            if (prologue.uriPath().path().equals(own)) { // decoded, as Helidon's routing matches it
                return null;
            }
        } catch (IllegalArgumentException invalid) {
            return null;
        }
        WritableHeaders<?> headers = WritableHeaders.create();
        int hosts = 0;
        long length = -1;
        boolean close = false;
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
            HeaderName name = HeaderNames.create(new String(b, line, colon - line, StandardCharsets.US_ASCII));
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
                    } else if (!text.equalsIgnoreCase("keep-alive")) {
                        return null;
                    }
                }
                // framing, protocol switches and what Helidon itself sets from the TLS session
                case "transfer-encoding", "upgrade", "expect", "http2-settings", "x-helidon-cn" -> {
                    return null;
                }
                default -> {
                }
            }
            headers.add(HeaderValues.create(name, text));
            line = next;
        }
        if (hosts != 1 || line != end - 2) {
            return null;
        }
        return new LeanHead(prologue, ServerRequestHeaders.create(headers), Math.max(length, 0), close);
    }

    private static Method method(byte[] b, int sp) {
        return switch (new String(b, 0, sp, StandardCharsets.US_ASCII)) {
            case "GET" -> Method.GET;
            case "POST" -> Method.POST;
            case "PUT" -> Method.PUT;
            case "PATCH" -> Method.PATCH;
            case "DELETE" -> Method.DELETE;
            case "HEAD" -> Method.HEAD;
            default -> null;
        };
    }

    private static boolean isVersion(byte[] b, int at, int end) {
        return at + VERSION.length <= end && Arrays.equals(b, at, at + VERSION.length, VERSION, 0, VERSION.length);
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
