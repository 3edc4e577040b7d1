package io.insika.router.server.proxy;

import java.io.InputStream;
import java.net.SocketAddress;

import io.helidon.http.HttpPrologue;
import io.helidon.http.ServerRequestHeaders;
import io.helidon.webserver.http.ServerRequest;

/**
 * What the proxy reads of a client's request, from Helidon's HTTP/1 connection, from one the
 * router frames itself, or from a WebSocket upgrade: what a {@link ProxyCall} begins with.
 *
 * @param prologue the request line
 * @param headers  its fields, validated
 * @param peer     the client's address
 * @param secure   whether it came over TLS
 * @param body     its body's stream, or {@code null} when it has none
 */
record ClientRequest(HttpPrologue prologue, ServerRequestHeaders headers, SocketAddress peer, boolean secure,
                     InputStream body) {

    /** The protocol version of a request Helidon's HTTP/2 server read. */
    static final String HTTP_2 = "2.0";

    static ClientRequest of(ServerRequest request) {
        HttpPrologue prologue = request.prologue();
        ServerRequestHeaders headers = HTTP_2.equals(prologue.protocolVersion())
                ? Http2Fields.forHttp1(request.headers()) : request.headers();
        return new ClientRequest(prologue, headers, request.remotePeer().address(),
                request.isSecure(), request.content().hasEntity() ? request.content().inputStream() : null);
    }

    /** Whether the request came as an HTTP/2 stream, to be forwarded as HTTP/1.1. */
    boolean http2() {
        return HTTP_2.equals(prologue.protocolVersion());
    }
}
