import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ConcurrentLinkedQueue;

/**
 * NOT the router: a measuring stick. The least a Java proxy on virtual threads and blocking
 * sockets can do for bench/sessions.lua's job: one virtual thread per client connection, the
 * head read into a reused buffer, Content-Length framing only, the "user" field found by a
 * plain byte scan, a backend chosen by the key's hash, kept backend connections, the answer
 * (Content-Length framed, as nginx sends it) copied back. No header validation, no chunking, no
 * metrics, no logging, no limits: everything the router does beyond this is what its CPU per
 * request buys. Run: java LeanFloor.java PORT BACKEND_PORT... (see bench/lean-floor.sh).
 */
public final class LeanFloor {

    private static int[] backendPorts;
    private static List<ConcurrentLinkedQueue<Conn>> idle = new ArrayList<>();

    public static void main(String[] args) throws IOException {
        int port = Integer.parseInt(args[0]);
        backendPorts = new int[args.length - 1];
        for (int i = 1; i < args.length; i++) {
            backendPorts[i - 1] = Integer.parseInt(args[i]);
            idle.add(new ConcurrentLinkedQueue<>());
        }
        try (ServerSocket server = new ServerSocket()) {
            server.bind(new InetSocketAddress("127.0.0.1", port), 1024);
            while (true) {
                Socket client = server.accept();
                Thread.ofVirtual().start(() -> serve(client));
            }
        }
    }

    /** One side's socket with its read buffer. */
    private static final class Conn {
        final Socket socket;
        final InputStream in;
        final OutputStream out;
        final byte[] buf = new byte[16384];
        int start;
        int end;

        Conn(Socket socket) throws IOException {
            this.socket = socket;
            socket.setTcpNoDelay(true);
            this.in = socket.getInputStream();
            this.out = socket.getOutputStream();
        }

        /** Reads until a whole head is buffered; returns its end (after CRLFCRLF), or -1 at EOF. */
        int head() throws IOException {
            while (true) {
                for (int i = start; i + 3 < end; i++) {
                    if (buf[i] == '\r' && buf[i + 1] == '\n' && buf[i + 2] == '\r' && buf[i + 3] == '\n') {
                        return i + 4;
                    }
                }
                if (start > 0) {
                    System.arraycopy(buf, start, buf, 0, end - start);
                    end -= start;
                    start = 0;
                }
                int n = in.read(buf, end, buf.length - end);
                if (n < 0) {
                    return -1;
                }
                end += n;
            }
        }

        /** Ensures the buffer holds at least n bytes from start. */
        void fill(int n) throws IOException {
            if (start + n > buf.length) {
                System.arraycopy(buf, start, buf, 0, end - start);
                end -= start;
                start = 0;
            }
            while (end - start < n) {
                int r = in.read(buf, end, buf.length - end);
                if (r < 0) {
                    throw new IOException("eof");
                }
                end += r;
            }
        }
    }

    private static void serve(Socket socket) {
        try (socket) {
            Conn client = new Conn(socket);
            while (true) {
                int headEnd = client.head();
                if (headEnd < 0) {
                    return;
                }
                int length = contentLength(client.buf, client.start, headEnd);
                client.fill(headEnd - client.start + length);
                int bodyStart = headEnd;
                int backend = Math.floorMod(key(client.buf, bodyStart, bodyStart + length), backendPorts.length);
                Conn upstream = idle.get(backend).poll();
                if (upstream == null) {
                    upstream = new Conn(new Socket("127.0.0.1", backendPorts[backend]));
                }
                upstream.out.write(client.buf, client.start, bodyStart + length - client.start);
                client.start = bodyStart + length;
                int answerEnd = upstream.head();
                int answerLength = contentLength(upstream.buf, upstream.start, answerEnd);
                upstream.fill(answerEnd - upstream.start + answerLength);
                client.out.write(upstream.buf, upstream.start, answerEnd + answerLength - upstream.start);
                upstream.start = answerEnd + answerLength;
                idle.get(backend).offer(upstream);
            }
        } catch (IOException e) {
            // the client went away: nothing to do in a measuring stick
        }
    }

    private static int contentLength(byte[] b, int from, int to) {
        for (int i = from; i + 15 < to; i++) {
            if ((b[i] | 0x20) == 'c' && b[i - 1] == '\n' && regionIs(b, i, "content-length:")) {
                int v = 0;
                for (int j = i + 15; j < to && b[j] != '\r'; j++) {
                    if (b[j] >= '0' && b[j] <= '9') {
                        v = v * 10 + b[j] - '0';
                    }
                }
                return v;
            }
        }
        return 0;
    }

    private static boolean regionIs(byte[] b, int at, String lower) {
        for (int k = 0; k < lower.length(); k++) {
            if ((b[at + k] | 0x20) != lower.charAt(k) && b[at + k] != lower.charAt(k)) {
                return false;
            }
        }
        return true;
    }

    private static final byte[] USER = "\"user\":\"".getBytes(StandardCharsets.US_ASCII);

    /** A hash of the "user" value (the router hashes with MD5; this is FNV, cheaper still). */
    private static int key(byte[] b, int from, int to) {
        outer:
        for (int i = from; i + USER.length < to; i++) {
            for (int k = 0; k < USER.length; k++) {
                if (b[i + k] != USER[k]) {
                    continue outer;
                }
            }
            int h = 0x811c9dc5;
            for (int j = i + USER.length; j < to && b[j] != '"'; j++) {
                h = (h ^ b[j]) * 0x01000193;
            }
            return h;
        }
        return 0;
    }
}
