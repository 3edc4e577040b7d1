package io.insika.router.server.proxy;

import java.nio.charset.StandardCharsets;

/**
 * The bytes of one request of {@code bench/sessions.lua} and of the answer the bench's nginx
 * backends give it, as they cross the sockets: what the request path's benchmark feeds the router.
 */
final class SessionsTraffic {

    /** The JSON body wrk sends, keyed by {@code user}: 264 bytes for a three-digit session. */
    static final byte[] BODY = ("{\"model\":\"insika-1\",\"user\":\"session-417\",\"input\":\"hello\",\"pad\":\""
            + "x".repeat(200) + "\"}").getBytes(StandardCharsets.US_ASCII);

    /** wrk's request: its Host, the script's Content-Type, the length wrk.format adds, the body. */
    static final byte[] REQUEST = concat(("POST /v1/responses HTTP/1.1\r\n"
            + "Host: 127.0.0.1:18099\r\n"
            + "Content-Type: application/json\r\n"
            + "Content-Length: " + BODY.length + "\r\n"
            + "\r\n").getBytes(StandardCharsets.US_ASCII), BODY);

    /** Where the request's head ends: just past its empty line. */
    static final int HEAD_END = REQUEST.length - BODY.length;

    /** The body of nginx's {@code return 200 "backend-1\n"} (bench/nginx-backends.sh). */
    static final byte[] ANSWER_BODY = "backend-1\n".getBytes(StandardCharsets.US_ASCII);

    /** nginx 1.22's answer head to that request, byte for byte as it was seen on the wire. */
    static final byte[] ANSWER_HEAD = ("HTTP/1.1 200 OK\r\n"
            + "Server: nginx/1.22.1\r\n"
            + "Date: Thu, 03 Dec 2026 21:08:23 GMT\r\n"
            + "Content-Type: text/plain\r\n"
            + "Content-Length: " + ANSWER_BODY.length + "\r\n"
            + "Connection: keep-alive\r\n"
            + "\r\n").getBytes(StandardCharsets.US_ASCII);

    /** The whole answer, head and body, as one read from the backend brings it. */
    static final byte[] ANSWER = concat(ANSWER_HEAD, ANSWER_BODY);

    /**
     * The same answer as a Node.js backend gives it ({@code res.end(JSON.stringify(...))} after a
     * {@code res.write}: no length, two chunks), which Python's and most streaming servers' match.
     */
    static final byte[] CHUNKED_ANSWER_HEAD = ("HTTP/1.1 200 OK\r\n"
            + "Content-Type: application/json\r\n"
            + "Date: Thu, 03 Dec 2026 21:08:23 GMT\r\n"
            + "Connection: keep-alive\r\n"
            + "Keep-Alive: timeout=5\r\n"
            + "Transfer-Encoding: chunked\r\n"
            + "\r\n").getBytes(StandardCharsets.US_ASCII);

    /** Its body: two chunks and the last one. */
    static final byte[] CHUNKED_ANSWER_BODY = ("c\r\n{\"backend\":\"\r\n"
            + "5\r\nb-1\"}\r\n"
            + "0\r\n\r\n").getBytes(StandardCharsets.US_ASCII);

    private SessionsTraffic() {
    }

    private static byte[] concat(byte[] a, byte[] b) {
        byte[] both = new byte[a.length + b.length];
        System.arraycopy(a, 0, both, 0, a.length);
        System.arraycopy(b, 0, both, a.length, b.length);
        return both;
    }
}
