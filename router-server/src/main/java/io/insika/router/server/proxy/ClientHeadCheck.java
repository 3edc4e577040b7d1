package io.insika.router.server.proxy;

import io.helidon.http.Header;
import io.helidon.http.HttpPrologue;
import io.helidon.http.ServerRequestHeaders;
import io.insika.router.server.upstream.HttpSyntax;

/**
 * What the router checks of a client's head on top of Helidon's own parsing, before any backend
 * is chosen: that the head can be forwarded exactly as it came. A head that fails is the
 * client's fault, answered 400; no backend connection is taken for it and no backend is blamed.
 *
 * <ul>
 * <li>The method and every field name are tokens (RFC 9110, section 5.6.2). Helidon 4.5 takes a
 *     field line with an empty name ({@code : y}) and some names that are not tokens
 *     ({@code X(A)}); the backend writer refuses them, but only once a connection is taken.</li>
 * <li>The target is in origin form, or in absolute form as {@link RequestTarget} accepts it.</li>
 * <li>An HTTP/2 request carries no connection-specific field ({@link Http2Fields}).</li>
 * <li>No octet above 0x7E. Helidon decodes header values and the target as US-ASCII, so obs-text
 *     ({@code café} in UTF-8) reaches the router as U+FFFD and could only be forwarded changed.</li>
 * </ul>
 */
final class ClientHeadCheck {

    private ClientHeadCheck() {
    }

    /** Whether the head can be forwarded byte for byte. */
    static boolean forwardable(RequestTarget target, ServerRequestHeaders headers) {
        HttpPrologue prologue = target.prologue();
        if (!HttpSyntax.isToken(prologue.method().text())
                || !HttpSyntax.isTarget(prologue.uriPath().rawPath())
                || (prologue.hasQuery() && !prologue.query().rawValue().isEmpty()
                        && !HttpSyntax.isTarget(prologue.query().rawValue()))
                || !target.forwardable()
                || (ClientRequest.HTTP_2.equals(prologue.protocolVersion()) && !Http2Fields.wellFormed(headers))) {
            return false;
        }
        for (Header header : headers) {
            if (!HttpSyntax.isToken(header.name())) {
                return false;
            }
            boolean clean = header.valueCount() == 1
                    ? ascii(header.get())
                    : header.allValues().stream().allMatch(ClientHeadCheck::ascii);
            if (!clean) {
                return false;
            }
        }
        return true;
    }

    private static boolean ascii(String text) {
        for (int i = 0; i < text.length(); i++) {
            if (text.charAt(i) > 0x7e) {
                return false;
            }
        }
        return true;
    }
}
