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

    static ClientRequest of(ServerRequest request) {
        return new ClientRequest(request.prologue(), request.headers(), request.remotePeer().address(),
                request.isSecure(), request.content().hasEntity() ? request.content().inputStream() : null);
    }
}
