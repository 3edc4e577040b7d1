import java.lang.reflect.Field;
import java.nio.channels.SocketChannel;
import java.time.Duration;
import java.util.Set;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicInteger;

import io.helidon.common.buffers.BufferData;
import io.helidon.common.buffers.DataReader;
import io.helidon.common.concurrency.limits.Limit;
import io.helidon.webserver.ConnectionContext;
import io.helidon.webserver.WebServer;
import io.helidon.webserver.spi.ServerConnection;
import io.helidon.webserver.spi.ServerConnectionSelector;

/**
 * NOT the router: a prototype that measures what issue 28's next step would buy, EventFloor's
 * event loops behind Helidon 4.5's listener. Helidon keeps the listener (accept, its connection
 * limit, its selectors, one virtual thread per connection); a {@link ServerConnectionSelector}
 * ahead of Helidon's HTTP/1 one takes the connection, drains what Helidon has read of it, and
 * hands its {@link SocketChannel}, switched to non-blocking, to one of EventFloor's loops, which
 * keeps it registered with epoll from then on. The connection's virtual thread parks until the
 * loop closes the channel: Helidon closes a connection when its handler returns.
 *
 * <p>Helidon 4.5 gives a selector no public way to the channel: this reads ConnectionHandler's
 * private {@code socket} field, which a product could not rely on (it would need a Helidon SPI,
 * or the router's own listener). Run:
 * {@code java -cp 'ROUTER_HOME/lib/*' HelidonEventFloor.java LOOPS PORT BACKEND_PORT...}
 * (see bench/cpu-floor.sh).
 */
public final class HelidonEventFloor {

    public static void main(String[] args) throws Exception {
        int loopCount = Integer.parseInt(args[0]);
        int port = Integer.parseInt(args[1]);
        int[] backends = new int[args.length - 2];
        for (int i = 2; i < args.length; i++) {
            backends[i - 2] = Integer.parseInt(args[i]);
        }
        EventFloor.Loop[] loops = EventFloor.loops(loopCount, backends);
        WebServer.builder()
                .host("127.0.0.1")
                .port(port)
                .maxTcpConnections(-1)
                .addConnectionSelector(new Handover(loops))
                .routing(routing -> routing.any((req, res) -> res.send("not reached")))
                .build()
                .start();
    }

    /** Takes every connection of the listener and gives its channel to a loop. */
    private static final class Handover implements ServerConnectionSelector {
        private final EventFloor.Loop[] loops;
        private final AtomicInteger next = new AtomicInteger();
        private final Field socket;

        Handover(EventFloor.Loop[] loops) throws ReflectiveOperationException {
            this.loops = loops;
            this.socket = Class.forName("io.helidon.webserver.ConnectionHandler").getDeclaredField("socket");
            socket.setAccessible(true);
        }

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
                public void handle(Limit limit) throws InterruptedException {
                    SocketChannel channel;
                    try {
                        channel = (SocketChannel) socket.get(ctx);
                    } catch (IllegalAccessException e) {
                        throw new IllegalStateException(e);
                    }
                    CountDownLatch closed = new CountDownLatch(1);
                    loops[Math.floorMod(next.getAndIncrement(), loops.length)]
                            .adopt(channel, drained(ctx.dataReader()), closed::countDown);
                    closed.await();
                }

                @Override
                public Duration idleTime() {
                    return Duration.ZERO;
                }

                @Override
                public void close(boolean interrupt) {
                }
            };
        }

        // What Helidon already read off the socket to choose a selector: the loop's first bytes.
        private static byte[] drained(DataReader reader) {
            int available = reader.available();
            byte[] bytes = new byte[available];
            if (available > 0) {
                reader.readBuffer(available).read(bytes, 0, available);
            }
            return bytes;
        }
    }
}
