package io.insika.router.server.testing;

import java.io.IOException;
import java.io.InputStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Function;

import io.insika.router.api.Backend;

/**
 * A backend that answers every request with bytes the test wrote by hand, on a real loopback
 * socket: for answers no well-behaved server would send (bad framing, interim answers, odd
 * headers). It reads each request's head and Content-Length body, then writes the script's
 * answer; the connection stays open for the next request unless the script says to close.
 */
public final class ScriptedBackend implements AutoCloseable {

    /** What to send for one request, and whether to close the connection afterwards. */
    public record Answer(byte[] bytes, boolean close) {
        public static Answer keep(String text) {
            return new Answer(text.getBytes(StandardCharsets.ISO_8859_1), false);
        }

        public static Answer thenClose(String text) {
            return new Answer(text.getBytes(StandardCharsets.ISO_8859_1), true);
        }
    }

    public final AtomicInteger connections = new AtomicInteger();
    public final List<String> requests = new CopyOnWriteArrayList<>();
    private final ServerSocket server;
    private final Function<String, Answer> script;
    private final Thread acceptor;

    private ScriptedBackend(Function<String, Answer> script) throws IOException {
        this.script = script;
        this.server = new ServerSocket(0, 50, InetAddress.getLoopbackAddress());
        this.acceptor = Thread.ofVirtual().start(this::accept);
    }

    /** Starts a backend that gives every request the answer the script computes from its head. */
    public static ScriptedBackend answering(Function<String, Answer> script) throws IOException {
        return new ScriptedBackend(script);
    }

    public Backend backend() {
        return Backend.parse("http://127.0.0.1:" + server.getLocalPort());
    }

    private void accept() {
        while (!server.isClosed()) {
            try {
                Socket socket = server.accept();
                connections.incrementAndGet();
                Thread.ofVirtual().start(() -> serve(socket));
            } catch (IOException e) {
                return;
            }
        }
    }

    private void serve(Socket socket) {
        try (socket) {
            InputStream in = socket.getInputStream();
            while (true) {
                String head = RawHttp.readHead(in);
                if (head == null) {
                    return;
                }
                int length = contentLength(head);
                in.readNBytes(length);
                requests.add(head);
                Answer answer = script.apply(head);
                socket.getOutputStream().write(answer.bytes());
                socket.getOutputStream().flush();
                if (answer.close()) {
                    return;
                }
            }
        } catch (IOException e) {
            // the router hung up: the next connection is its business
        }
    }

    private static int contentLength(String head) {
        for (String line : head.split("\r\n")) {
            if (line.toLowerCase().startsWith("content-length:")) {
                return Integer.parseInt(line.substring(15).strip());
            }
        }
        return 0;
    }

    // A listener whose accept() a virtual thread is parked in stays open, and may accept one more
    // connection, until that thread wakes: wait for it, so a closed backend is really gone.
    @Override
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
