package io.insika.router.server.proxy;

import java.io.ByteArrayOutputStream;
import java.io.FilterInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

import io.insika.router.api.Backend;
import io.insika.router.server.testing.Http1Messages;

/**
 * A raw backend for the conformance corpus: it keeps every byte it receives, per connection, and
 * answers each request it reads (strictly) with a body naming that request ({@code POST /v1/x}),
 * so a client that gets another request's answer can tell. A target containing {@code slow} is
 * answered after a pause, as a smuggled request must be to outlive the router's reuse check.
 */
final class RecordingBackend implements AutoCloseable {

    private final ServerSocket server;
    private final List<ByteArrayOutputStream> connections = new CopyOnWriteArrayList<>();
    private final Thread acceptor;

    private RecordingBackend() throws IOException {
        this.server = new ServerSocket(0, 50, InetAddress.getLoopbackAddress());
        this.acceptor = Thread.ofVirtual().start(this::accept);
    }

    static RecordingBackend start() throws IOException {
        return new RecordingBackend();
    }

    Backend backend() {
        return Backend.parse("http://127.0.0.1:" + server.getLocalPort());
    }

    /** How many bytes each connection has received so far, in the order they were accepted. */
    List<Integer> sizes() {
        return connections.stream().map(c -> {
            synchronized (c) {
                return c.size();
            }
        }).toList();
    }

    /** What every connection received after the given sizes, each connection's bytes apart. */
    List<byte[]> receivedSince(List<Integer> sizes) {
        List<byte[]> received = new java.util.ArrayList<>();
        for (int i = 0; i < connections.size(); i++) {
            ByteArrayOutputStream c = connections.get(i);
            byte[] all;
            synchronized (c) {
                all = c.toByteArray();
            }
            int from = i < sizes.size() ? sizes.get(i) : 0;
            if (all.length > from) {
                received.add(java.util.Arrays.copyOfRange(all, from, all.length));
            }
        }
        return received;
    }

    private void accept() {
        while (!server.isClosed()) {
            try {
                Socket socket = server.accept();
                ByteArrayOutputStream record = new ByteArrayOutputStream();
                connections.add(record);
                Thread.ofVirtual().start(() -> serve(socket, record));
            } catch (IOException e) {
                return;
            }
        }
    }

    private static void serve(Socket socket, ByteArrayOutputStream record) {
        try (socket) {
            InputStream in = new Recorded(socket.getInputStream(), record);
            for (Http1Messages.Message request = Http1Messages.nextRequest(in); request != null;
                 request = Http1Messages.nextRequest(in)) {
                String line = request.startLine();
                String name = line.substring(0, line.lastIndexOf(' '));
                if (name.contains("slow")) {
                    Thread.sleep(300);
                }
                byte[] body = name.getBytes(StandardCharsets.ISO_8859_1);
                socket.getOutputStream().write(("HTTP/1.1 200 OK\r\nContent-Length: " + body.length + "\r\n\r\n")
                        .getBytes(StandardCharsets.ISO_8859_1));
                socket.getOutputStream().write(body);
                socket.getOutputStream().flush();
            }
        } catch (IOException | InterruptedException e) {
            // the router hung up, or sent what a strict server refuses: the connection ends
        }
    }

    @Override
    // joined: a listener whose accept() a virtual thread is parked in stays open until it wakes
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

    private static final class Recorded extends FilterInputStream {
        private final ByteArrayOutputStream record;

        Recorded(InputStream in, ByteArrayOutputStream record) {
            super(in);
            this.record = record;
        }

        @Override
        public int read() throws IOException {
            int b = in.read();
            if (b >= 0) {
                synchronized (record) {
                    record.write(b);
                }
            }
            return b;
        }

        @Override
        public int read(byte[] buffer, int offset, int length) throws IOException {
            int n = in.read(buffer, offset, length);
            if (n > 0) {
                synchronized (record) {
                    record.write(buffer, offset, n);
                }
            }
            return n;
        }
    }
}
