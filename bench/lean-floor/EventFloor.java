import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.StandardSocketOptions;
import java.nio.ByteBuffer;
import java.nio.channels.SelectionKey;
import java.nio.channels.Selector;
import java.nio.channels.ServerSocketChannel;
import java.nio.channels.SocketChannel;
import java.util.ArrayDeque;
import java.util.Queue;
import java.util.concurrent.ConcurrentLinkedQueue;

/**
 * NOT the router: a measuring stick, like {@code LeanFloor.java} beside it and for the same job
 * (bench/sessions.lua's requests, the "user" field's hash picks one of the backends, kept
 * backend connections, Content-Length framing only, no checks of any kind), but on event loops
 * instead of a virtual thread per connection: non-blocking channels registered once with a
 * {@link Selector} (level-triggered epoll on Linux) and left registered, so waiting costs no
 * syscall of its own and a channel is read only when epoll says it has bytes. HAProxy's model,
 * in plain JDK code. Its CPU per request beside LeanFloor's is what blocking sockets on virtual
 * threads cost (an empty read and an {@code epoll_ctl} for each wait), before any proxy work.
 *
 * <p>Writes are made whole at once: this job's heads and bodies are a few hundred bytes, which an
 * empty loopback socket buffer always takes. Run:
 * {@code java EventFloor.java LOOPS PORT BACKEND_PORT...} (see bench/cpu-floor.sh).
 */
public final class EventFloor {

    private static int[] backendPorts;

    public static void main(String[] args) throws IOException {
        int loopCount = Integer.parseInt(args[0]);
        int port = Integer.parseInt(args[1]);
        int[] backends = new int[args.length - 2];
        for (int i = 2; i < args.length; i++) {
            backends[i - 2] = Integer.parseInt(args[i]);
        }
        Loop[] loops = loops(loopCount, backends);
        try (ServerSocketChannel server = ServerSocketChannel.open()) {
            server.bind(new InetSocketAddress("127.0.0.1", port), 1024);
            for (int n = 0; ; n++) { // connections are few and long-lived: a blocking accept hands them out
                loops[n % loopCount].adopt(server.accept());
            }
        }
    }

    /** Starts the loops on platform threads, each on its own selector. */
    static Loop[] loops(int count, int[] backends) throws IOException {
        backendPorts = backends;
        Loop[] loops = new Loop[count];
        for (int i = 0; i < count; i++) {
            loops[i] = new Loop();
            Thread.ofPlatform().name("event-loop-" + i).start(loops[i]);
        }
        return loops;
    }

    /** A connection handed to a loop, with the bytes already read from it and what to run once it closed. */
    private record Adopted(SocketChannel channel, byte[] read, Runnable closed) {
    }

    /** One thread, one selector, its own kept backend connections. */
    static final class Loop implements Runnable {
        private final Selector selector;
        private final Queue<Adopted> adopted = new ConcurrentLinkedQueue<>();
        private final ArrayDeque<Upstream>[] idle;

        @SuppressWarnings("unchecked")
        Loop() throws IOException {
            selector = Selector.open();
            idle = new ArrayDeque[backendPorts.length];
            for (int i = 0; i < idle.length; i++) {
                idle[i] = new ArrayDeque<>();
            }
        }

        void adopt(SocketChannel channel) {
            adopt(channel, new byte[0], () -> { });
        }

        /** Takes over a connection another thread accepted, and perhaps began to read. */
        void adopt(SocketChannel channel, byte[] read, Runnable closed) {
            adopted.add(new Adopted(channel, read, closed));
            selector.wakeup();
        }

        @Override
        public void run() {
            while (true) {
                try {
                    selector.select(key -> ((Side) key.attachment()).readable());
                    for (Adopted next = adopted.poll(); next != null; next = adopted.poll()) {
                        SocketChannel channel = next.channel();
                        channel.configureBlocking(false);
                        channel.setOption(StandardSocketOptions.TCP_NODELAY, true);
                        Client client = new Client(this, channel, next.closed());
                        channel.register(selector, SelectionKey.OP_READ, client);
                        if (next.read().length > 0) {
                            client.in.put(next.read());
                            client.readable();
                        }
                    }
                } catch (IOException e) {
                    throw new IllegalStateException(e);
                }
            }
        }

        Upstream take(int backend) throws IOException {
            for (Upstream kept = idle[backend].pollFirst(); kept != null; kept = idle[backend].pollFirst()) {
                if (kept.channel.isOpen()) {
                    return kept;
                }
            }
            SocketChannel channel = SocketChannel.open(new InetSocketAddress("127.0.0.1", backendPorts[backend]));
            channel.configureBlocking(false);
            channel.setOption(StandardSocketOptions.TCP_NODELAY, true);
            Upstream upstream = new Upstream(this, channel, backend);
            channel.register(selector, SelectionKey.OP_READ, upstream);
            return upstream;
        }
    }

    /** A channel with its read buffer: a message is handled once it is all in the buffer. */
    private abstract static class Side {
        final Loop loop;
        final SocketChannel channel;
        final byte[] bytes = new byte[16384];
        final ByteBuffer in = ByteBuffer.wrap(bytes);

        Side(Loop loop, SocketChannel channel) {
            this.loop = loop;
            this.channel = channel;
        }

        void readable() {
            try {
                if (channel.read(in) < 0) {
                    close();
                    return;
                }
                int end = in.position();
                int headEnd = FloorJob.headEnd(bytes, 0, end);
                if (headEnd < 0) {
                    return;
                }
                int total = headEnd + FloorJob.contentLength(bytes, 0, headEnd);
                if (end < total) {
                    return;
                }
                message(headEnd, total);
                System.arraycopy(bytes, total, bytes, 0, end - total);
                in.position(end - total);
            } catch (IOException e) {
                close();
            }
        }

        abstract void message(int headEnd, int total) throws IOException;

        void close() {
            try {
                channel.close();
            } catch (IOException ignored) {
                // closing is all that was wanted
            }
        }

        static void write(SocketChannel channel, byte[] bytes, int length) throws IOException {
            ByteBuffer out = ByteBuffer.wrap(bytes, 0, length);
            while (out.hasRemaining()) {
                channel.write(out);
            }
        }
    }

    private static final class Client extends Side {
        private final Runnable closed;

        Client(Loop loop, SocketChannel channel, Runnable closed) {
            super(loop, channel);
            this.closed = closed;
        }

        @Override
        void close() {
            super.close();
            closed.run();
        }

        @Override
        void message(int headEnd, int total) throws IOException {
            int backend = Math.floorMod(FloorJob.key(bytes, headEnd, total), backendPorts.length);
            Upstream upstream = loop.take(backend);
            upstream.client = this;
            write(upstream.channel, bytes, total);
        }
    }

    private static final class Upstream extends Side {
        private final int backend;
        Client client;

        Upstream(Loop loop, SocketChannel channel, int backend) {
            super(loop, channel);
            this.backend = backend;
        }

        @Override
        void message(int headEnd, int total) throws IOException {
            Client answered = client;
            client = null;
            loop.idle[backend].offerFirst(this);
            write(answered.channel, bytes, total);
        }

        @Override
        void close() {
            super.close();
            if (client != null) {
                client.close();
            }
        }
    }
}
