package io.insika.router.server.proxy;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;

import io.insika.router.api.Backend;
import io.insika.router.server.testing.RawHttp;

/**
 * Agrees to every upgrade, greets with its 8-character name, then echoes every byte; hangs up
 * when it reads "bye". With {@code refuse} set it answers 400 instead.
 */
final class EchoBackend implements AutoCloseable {
    final String name;
    final List<String> requests = new CopyOnWriteArrayList<>();
    final CountDownLatch closedByPeer = new CountDownLatch(1);
    volatile boolean refuse;
    volatile String refusal;
    volatile boolean drainAfterEndOfStream;
    volatile boolean speakWebSocket;
    /** Field lines added to its 101, each ending in CRLF. */
    volatile String switchFields = "";
    private final ServerSocket server;
    private final Thread acceptor;

    EchoBackend(String name) throws IOException {
        this.name = name;
        this.server = new ServerSocket(0, 50, InetAddress.getLoopbackAddress());
        this.acceptor = Thread.ofVirtual().start(() -> {
            while (!server.isClosed()) {
                try {
                    Socket socket = server.accept();
                    Thread.ofVirtual().start(() -> serve(socket));
                } catch (IOException e) {
                    return;
                }
            }
        });
    }

    Backend backend() {
        return Backend.parse("http://127.0.0.1:" + server.getLocalPort());
    }

    private void serve(Socket socket) {
        try (socket) {
            InputStream in = socket.getInputStream();
            OutputStream out = socket.getOutputStream();
            String head = RawHttp.readHead(in);
            if (head == null) {
                return;
            }
            requests.add(head);
            if (speakWebSocket) {
                webSocketEcho(head, in, out);
                return;
            }
            if (refuse) {
                out.write(("HTTP/1.1 400 Bad Request\r\nContent-Length: 17\r\n\r\nno websocket here")
                        .getBytes(StandardCharsets.US_ASCII));
                return;
            }
            if (refusal != null) {
                out.write(refusal.getBytes(StandardCharsets.US_ASCII));
                out.flush();
                in.read(); // and keeps the connection open: only the framing says the answer ended
                return;
            }
            // The greeting goes in the same write as the 101, as a server's first frame may.
            out.write(("HTTP/1.1 101 Switching Protocols\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
                    + "Sec-WebSocket-Accept: s3pPLMBiTxaQ9kYGzzhZRbK+xOo=\r\n" + switchFields + "\r\n" + name)
                    .getBytes(StandardCharsets.US_ASCII));
            byte[] buffer = new byte[16384];
            for (int n = in.read(buffer); n > 0; n = in.read(buffer)) {
                out.write(buffer, 0, n);
                if (new String(buffer, 0, n, StandardCharsets.US_ASCII).endsWith("bye")) {
                    return;
                }
            }
            closedByPeer.countDown();
            if (drainAfterEndOfStream) {
                out.write("drained".getBytes(StandardCharsets.US_ASCII)); // after the client's end of stream
            }
        } catch (SocketTimeoutException e) {
            // not expected: no timeout is set
        } catch (IOException e) {
            closedByPeer.countDown();
        }
    }

    // RFC 6455 just far enough for short text frames: accept the handshake, then answer each
    // masked client frame with an unmasked one carrying "name:text".
    private void webSocketEcho(String head, InputStream in, OutputStream out) throws IOException {
        String key = head.lines().filter(l -> l.toLowerCase().startsWith("sec-websocket-key:"))
                .map(l -> l.substring(18).strip()).findFirst().orElseThrow();
        String accept;
        try {
            accept = java.util.Base64.getEncoder().encodeToString(java.security.MessageDigest.getInstance("SHA-1")
                    .digest((key + "258EAFA5-E914-47DA-95CA-C5AB0DC85B11").getBytes(StandardCharsets.US_ASCII)));
        } catch (java.security.NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
        out.write(("HTTP/1.1 101 Switching Protocols\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
                + "Sec-WebSocket-Accept: " + accept + "\r\n\r\n").getBytes(StandardCharsets.US_ASCII));
        while (true) {
            int first = in.read();
            int second = in.read();
            if (first < 0 || second < 0) {
                return;
            }
            int length = second & 0x7f; // the test's messages are short: no extended lengths
            byte[] mask = in.readNBytes(4);
            byte[] payload = in.readNBytes(length);
            for (int i = 0; i < length; i++) {
                payload[i] ^= mask[i % 4];
            }
            int opcode = first & 0x0f;
            if (opcode == 0x8) { // close: answer it and hang up
                out.write(new byte[] {(byte) 0x88, 0});
                return;
            }
            byte[] reply = (name + ":" + new String(payload, StandardCharsets.UTF_8)).getBytes(StandardCharsets.UTF_8);
            out.write(new byte[] {(byte) 0x81, (byte) reply.length});
            out.write(reply);
        }
    }

    @Override
    // A ServerSocket whose accept() a virtual thread is parked in stays listening until that
    // thread wakes up and finishes the close, and it may still accept one connection on its
    // way out: wait for it, so a closed backend is really unreachable.
    public void close() {
        try {
            server.close();
            acceptor.join(5_000);
        } catch (IOException ignored) {
            // closing is all that was wanted
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
