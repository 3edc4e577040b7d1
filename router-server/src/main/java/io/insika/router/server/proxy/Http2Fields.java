package io.insika.router.server.proxy;

import java.util.List;
import java.util.Locale;
import java.util.Set;

import io.helidon.http.Header;
import io.helidon.http.HeaderNames;
import io.helidon.http.HeaderValues;
import io.helidon.http.ServerRequestHeaders;
import io.helidon.http.WritableHeaders;

/**
 * The rules of an HTTP/2 request's fields that its HTTP/1.1 form must keep (RFC 9113, section
 * 8.2.2 and 8.2.3). Helidon 4.5 refuses {@code Connection}, {@code Transfer-Encoding}, a {@code te}
 * other than {@code trailers}, upper-case names, misplaced or missing pseudo-headers and a
 * {@code Host} that disagrees with {@code :authority} (a stream or connection error); the router
 * adds the other connection-specific fields, and joins the cookies.
 */
final class Http2Fields {

    // RFC 9113, section 8.2.2: an HTTP/2 message carrying any of these is malformed
    private static final Set<String> CONNECTION_SPECIFIC = Set.of(
            "connection", "keep-alive", "proxy-connection", "transfer-encoding", "upgrade");

    private Http2Fields() {
    }

    /** Whether a field of this name (lower case) is connection-specific: never in an HTTP/2 message. */
    static boolean connectionSpecific(String name) {
        return CONNECTION_SPECIFIC.contains(name);
    }

    /** Whether the request's fields are well-formed HTTP/2: none connection-specific, {@code te} only {@code trailers}. */
    static boolean wellFormed(ServerRequestHeaders headers) {
        for (Header header : headers) {
            String name = header.name().toLowerCase(Locale.ROOT);
            if (CONNECTION_SPECIFIC.contains(name)) {
                return false;
            }
            if (name.equals("te") && !header.allValues().stream().allMatch(value -> value.equals("trailers"))) {
                return false;
            }
        }
        return true;
    }

    /**
     * The fields as one HTTP/1.1 message carries them: an HTTP/2 client may split its cookies into
     * one field each (RFC 9113, section 8.2.3), which are joined with {@code "; "} before they
     * go on; every other field is kept as it came.
     */
    static ServerRequestHeaders forHttp1(ServerRequestHeaders headers) {
        if (!headers.contains(HeaderNames.COOKIE) || headers.get(HeaderNames.COOKIE).valueCount() < 2) {
            return headers;
        }
        List<String> cookies = headers.get(HeaderNames.COOKIE).allValues();
        WritableHeaders<?> joined = WritableHeaders.create(headers);
        joined.set(HeaderValues.create(HeaderNames.COOKIE, String.join("; ", cookies)));
        return ServerRequestHeaders.create(joined);
    }
}
