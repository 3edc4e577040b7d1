import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentLinkedQueue;

import io.helidon.common.buffers.BufferData;
import io.helidon.common.buffers.DataReader;
import io.helidon.common.buffers.DataWriter;
import io.helidon.common.concurrency.limits.Limit;
import io.helidon.webserver.ConnectionContext;
import io.helidon.webserver.WebServer;
import io.helidon.webserver.spi.ServerConnection;
import io.helidon.webserver.spi.ServerConnectionSelector;

/**
 * NOT the router: a measuring stick. The least a Java proxy on virtual threads and blocking
 * sockets can do for bench/sessions.lua's job: one virtual thread per client connection, the
 * head read into a reused buffer, Content-Length framing only, the "user" field found by a
 * plain byte scan, a backend chosen by the key's hash, kept backend connections, the answer
 * (Content-Length framed, as nginx sends it) copied back. No header validation, no chunking, no
 * metrics, no logging, no limits: everything the router does beyond this is what its CPU per
 * request buys. Run: java -cp 'ROUTER_HOME/lib/*' LeanFloor.java [--helidon] PORT BACKEND_PORT...
 * (see bench/cpu-floor.sh).
 *
 * <p>With {@code --helidon} the same loop runs inside Helidon 4.5's listener instead of over a
 * plain {@code ServerSocket}: a {@link ServerConnectionSelector} placed before Helidon's HTTP/1
 * selector takes every connection and reads and writes the client through Helidon's
 * {@link DataReader} and {@link DataWriter} (its socket, the virtual thread it starts per
 * connection). The difference between the two is what Helidon's connection layer costs, which
 * is what a lean HTTP/1 connection in the router would still pay.
 */
public final class LeanFloor {

    private static int[] backendPorts;
    private static List<ConcurrentLinkedQueue<Conn>> idle = new ArrayList<>();

    public static void main(String[] args) throws IOException {
        boolean helidon = args[0].equals("--helidon");
        int first = helidon ? 1 : 0;
        int port = Integer.parseInt(args[first]);
        backendPorts = new int[args.length - first - 1];
        for (int i = first + 1; i < args.length; i++) {
            backendPorts[i - first - 1] = Integer.parseInt(args[i]);
            idle.add(new ConcurrentLinkedQueue<>());
        }
        if (helidon) {
            WebServer.builder()
                    .host("127.0.0.1")
                    .port(port)
                    .addConnectionSelector(new FloorSelector())
                    .routing(routing -> routing.any((req, res) -> res.send("not reached")))
                    .build()
                    .start();
            return;
        }
        try (ServerSocket server = new ServerSocket()) {
            server.bind(new InetSocketAddress("127.0.0.1", port), 1024);
            while (true) {
                Socket client = server.accept();
                Thread.ofVirtual().start(() -> {
                    try (client) {
                        serve(new Conn(client));
                    } catch (IOException e) {
                        // the client went away: nothing to do in a measuring stick
                    }
                });
            }
        }
    }

    /** One side of an exchange with its read buffer. */
    private abstract static class Buffered {
        final byte[] buf = new byte[16384];
        int start;
        int end;

        /** Reads at most len bytes into b at off; -1 at end of stream. */
        abstract int pull(byte[] b, int off, int len) throws IOException;

        abstract void send(byte[] b, int off, int len) throws IOException;

        /** Reads until a whole head is buffered; returns its end (after CRLFCRLF), or -1 at EOF. */
        int head() throws IOException {
            while (true) {
                int headEnd = FloorJob.headEnd(buf, start, end);
                if (headEnd >= 0) {
                    return headEnd;
                }
                if (start > 0) {
                    System.arraycopy(buf, start, buf, 0, end - start);
                    end -= start;
                    start = 0;
                }
                int n = pull(buf, end, buf.length - end);
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
                int r = pull(buf, end, buf.length - end);
                if (r < 0) {
                    throw new IOException("eof");
                }
                end += r;
            }
        }
    }

    /** A plain socket. */
    private static final class Conn extends Buffered {
        final Socket socket;
        final InputStream in;
        final OutputStream out;

        Conn(Socket socket) throws IOException {
            this.socket = socket;
            socket.setTcpNoDelay(true);
            this.in = socket.getInputStream();
            this.out = socket.getOutputStream();
        }

        @Override
        int pull(byte[] b, int off, int len) throws IOException {
            return in.read(b, off, len);
        }

        @Override
        void send(byte[] b, int off, int len) throws IOException {
            out.write(b, off, len);
        }
    }

    /** A client connection as Helidon's listener hands it over. */
    private static final class HelidonConn extends Buffered {
        final DataReader reader;
        final DataWriter writer;

        HelidonConn(ConnectionContext ctx) {
            this.reader = ctx.dataReader();
            this.writer = ctx.dataWriter();
        }

        @Override
        int pull(byte[] b, int off, int len) {
            try {
                reader.ensureAvailable();
            } catch (DataReader.InsufficientDataAvailableException e) {
                return -1;
            }
            int n = Math.min(len, reader.available());
            reader.readBuffer(n).read(b, off, n);
            return n;
        }

        @Override
        void send(byte[] b, int off, int len) {
            writer.writeNow(BufferData.create(b, off, len));
        }
    }

    /** Takes every connection of the listener, ahead of Helidon's HTTP/1 selector. */
    private static final class FloorSelector implements ServerConnectionSelector {
        @Override
        public int bytesToIdentifyConnection() {
            return 0;
        }

        @Override
        public Support supports(BufferData data) {
            return Support.SUPPORTED;
        }

        @Override
        public Set<String> supportedApplicationProtocols() {
            return Set.of("http/1.1");
        }

        @Override
        public ServerConnection connection(ConnectionContext ctx) {
            return new ServerConnection() {
                @Override
                public void handle(Limit limit) {
                    try {
                        serve(new HelidonConn(ctx));
                    } catch (IOException | RuntimeException e) {
                        // the client went away: nothing to do in a measuring stick
                    }
                }

                @Override
                public java.time.Duration idleTime() {
                    return java.time.Duration.ZERO;
                }

                @Override
                public void close(boolean interrupt) {
                }
            };
        }
    }

    private static void serve(Buffered client) throws IOException {
        while (true) {
            int headEnd = client.head();
            if (headEnd < 0) {
                return;
            }
            int length = FloorJob.contentLength(client.buf, client.start, headEnd);
            client.fill(headEnd - client.start + length);
            int bodyStart = headEnd;
            int backend = Math.floorMod(FloorJob.key(client.buf, bodyStart, bodyStart + length), backendPorts.length);
            Conn upstream = idle.get(backend).poll();
            if (upstream == null) {
                upstream = new Conn(new Socket("127.0.0.1", backendPorts[backend]));
            }
            upstream.send(client.buf, client.start, bodyStart + length - client.start);
            client.start = bodyStart + length;
            int answerEnd = upstream.head();
            int answerLength = FloorJob.contentLength(upstream.buf, upstream.start, answerEnd);
            upstream.fill(answerEnd - upstream.start + answerLength);
            client.send(upstream.buf, upstream.start, answerEnd + answerLength - upstream.start);
            upstream.start = answerEnd + answerLength;
            idle.get(backend).offer(upstream);
        }
    }
}
