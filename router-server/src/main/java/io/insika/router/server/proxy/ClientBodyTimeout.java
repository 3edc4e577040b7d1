package io.insika.router.server.proxy;

import java.io.FilterInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.net.SocketTimeoutException;
import java.time.Duration;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.LongAdder;

/**
 * Ends a request whose client stops sending its body part-way. Helidon 4.5 puts no timeout on a
 * read of the request body (its idle-connection check only interrupts a connection waiting for
 * the next request line), so a client that sends half a body and goes quiet would otherwise
 * hold its handler, and the backend connection the request was given, for as long as it likes.
 *
 * <p>Each read of a body registers itself; one watchdog thread interrupts the thread of a read
 * that has waited longer than the timeout. Interrupting a virtual thread blocked on a socket
 * closes the socket (JDK 21+), which ends the read with an exception the proxy already treats
 * as a client that left: its backend connection is discarded and nothing more is sent. The
 * timeout is per read, as nginx's {@code client_body_timeout}: a slow client that keeps sending
 * is never cut.
 */
final class ClientBodyTimeout implements AutoCloseable {

    private final long timeoutNanos;
    private final Duration timeout;
    private final Set<Read> reads = ConcurrentHashMap.newKeySet();
    private final LongAdder timedOut = new LongAdder();
    private final Thread watchdog;

    ClientBodyTimeout(Duration timeout) {
        this.timeout = timeout;
        this.timeoutNanos = timeout.toNanos();
        long tickMillis = Math.max(10, Math.min(1_000, timeout.toMillis() / 4));
        this.watchdog = Thread.ofVirtual().name("insika-client-body-watchdog").start(() -> watch(tickMillis));
    }

    /** A body stream whose reads are watched. */
    InputStream watch(InputStream body) {
        return new Watched(body);
    }

    /** How many requests were cut: exported as a metric. */
    long timedOut() {
        return timedOut.sum();
    }

    @Override
    public void close() {
        watchdog.interrupt();
    }

    private void watch(long tickMillis) {
        while (!Thread.currentThread().isInterrupted()) {
            try {
                Thread.sleep(tickMillis);
            } catch (InterruptedException e) {
                return;
            }
            long now = System.nanoTime();
            for (Read read : reads) {
                if (now - read.since > timeoutNanos) {
                    read.expire();
                }
            }
        }
    }

    /** One blocking read, from its start until it returns. */
    private static final class Read {
        private final Thread thread = Thread.currentThread();
        private final long since = System.nanoTime();
        private boolean done;    // guarded by this
        private boolean expired; // guarded by this

        synchronized void expire() {
            if (!done) {
                expired = true;
                thread.interrupt();
            }
        }

        /**
         * @return whether the watchdog cut it; the interrupt it sent is cleared then, so it
         * cannot fall on the thread's next blocking call (a backend write, say)
         */
        synchronized boolean end() {
            done = true;
            if (expired) {
                Thread.interrupted();
            }
            return expired;
        }
    }

    private final class Watched extends FilterInputStream {

        Watched(InputStream in) {
            super(in);
        }

        @Override
        public int read() throws IOException {
            byte[] one = new byte[1];
            return read(one, 0, 1) < 0 ? -1 : one[0] & 0xFF;
        }

        @Override
        public int read(byte[] buffer, int offset, int length) throws IOException {
            Read read = new Read();
            reads.add(read);
            int n;
            try {
                n = in.read(buffer, offset, length);
            } catch (IOException | RuntimeException e) {
                // Helidon reports a closed socket in more than one way (UncheckedIOException, its
                // own runtime exceptions): whichever it is, a cut read says so
                if (finish(read)) {
                    throw expired(e);
                }
                throw e;
            } catch (Error e) {
                finish(read);
                throw e;
            }
            if (finish(read)) {
                throw expired(null); // returned as it was cut: the socket is closed all the same
            }
            return n;
        }

        private boolean finish(Read read) {
            reads.remove(read);
            return read.end();
        }

        private IOException expired(Exception cause) {
            timedOut.increment();
            IOException e = new ClientBodyTimeoutException(timeout);
            if (cause != null) {
                e.initCause(cause);
            }
            return e;
        }
    }

    /** The client paused longer than the timeout while sending its body. */
    static final class ClientBodyTimeoutException extends SocketTimeoutException {

        private static final long serialVersionUID = 1L;

        ClientBodyTimeoutException(Duration timeout) {
            super("the client sent no body bytes for " + timeout.toMillis() + " ms");
        }
    }
}
