package io.insika.router.server.proxy;

import io.helidon.http.Header;
import io.helidon.http.HttpPrologue;
import io.helidon.http.ServerRequestHeaders;
import io.insika.router.server.upstream.HttpSyntax;

/**
 * What the router checks of a client's head on top of Helidon's own parsing (which already
 * refuses bad names, control characters, a missing or repeated {@code Host}, and conflicting or
 * invalid framing): that every octet can be forwarded exactly as it came.
 *
 * <p>Helidon 4.5 decodes header values and the target as US-ASCII, so an octet above 0x7F
 * (obs-text, {@code café} in UTF-8) reaches the router as U+FFFD and could only be forwarded
 * changed. Such a request is refused with 400 before any backend sees it: relaying a different
 * byte than the client sent is never an option.
 */
final class ClientHeadCheck {

    private ClientHeadCheck() {
    }

    /** Whether the head can be forwarded byte for byte. */
    static boolean forwardable(HttpPrologue prologue, ServerRequestHeaders headers) {
        if (!HttpSyntax.isTarget(prologue.uriPath().rawPath())
                || (prologue.hasQuery() && !prologue.query().rawValue().isEmpty()
                        && !HttpSyntax.isTarget(prologue.query().rawValue()))) {
            return false;
        }
        for (Header header : headers) {
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
