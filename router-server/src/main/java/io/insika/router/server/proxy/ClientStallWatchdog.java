package io.insika.router.server.proxy;

import java.io.FilterInputStream;
import java.io.FilterOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.SocketTimeoutException;
import java.time.Duration;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicReferenceArray;
import java.util.concurrent.atomic.LongAdder;
import java.util.function.Function;

/**
 * Ends a request whose client stalls: stops sending its body part-way, or stops reading its
 * answer. Helidon 4.5 puts no timeout on either (its idle-connection check only interrupts a
 * connection waiting for the next request line), so such a client would hold its handler, and
 * the backend connection the request was given, for as long as it likes: a slowloris on the
 * body, or a slow-read attack on the answer.
 *
 * <p>Each read of a body and each write of an answer registers itself; one watchdog thread
 * interrupts the thread of one that has waited longer than its timeout. Interrupting a virtual
 * thread blocked on a socket closes the socket (JDK 21+), which ends the call with an exception
 * the proxy already treats as a client that left: its backend connection is discarded and
 * nothing more is sent. The timeouts are per call, as nginx's {@code client_body_timeout} and
 * {@code send_timeout}: a slow client that keeps moving is never cut.
 */
final class ClientStallWatchdog implements AutoCloseable {

    // Calls under way, each in a slot of its own: a call takes a free one (a compare-and-set,
    // from a start that spreads threads apart) and empties it when it returns. A set updated
    // per call (a ConcurrentHashMap insertion and removal, with its shared counter, for each of
    // the ~4 watched reads and writes of a request) cost ~2% of a proxied request's CPU. Only
    // threads blocked on a client count at once, far fewer than connections; past the slots a
    // call goes to the overflow set.
    static final int SLOTS = 256;
    private static final int PROBES = 8;

    private final LongAdder bodyCuts = new LongAdder();
    private final LongAdder sendCuts = new LongAdder();
    private final AtomicReferenceArray<Call> slots = new AtomicReferenceArray<>(SLOTS);
    private final Set<Call> overflow = ConcurrentHashMap.newKeySet();
    private final Thread watchdog;
    // replaced by a reload; a stream keeps the limits it was watched with
    private volatile Direction body;
    private volatile Direction send;
    private volatile long tickMillis;
    // bytes per second a body must average once the body timeout has passed; 0: no floor
    private volatile long minRate;

    ClientStallWatchdog(Duration bodyTimeout, Duration sendTimeout, long bodyMinRate) {
        timeouts(bodyTimeout, sendTimeout, bodyMinRate);
        this.watchdog = Thread.ofVirtual().name("insika-client-watchdog").start(this::watch);
    }

    /**
     * Sets the limits of the streams watched from now on; streams already watched keep theirs,
     * as a request in flight keeps the configuration it started with.
     */
    void timeouts(Duration bodyTimeout, Duration sendTimeout, long bodyMinRate) {
        minRate = bodyMinRate;
        body = new Direction(bodyTimeout, bodyCuts, ClientBodyTimeoutException::new);
        send = new Direction(sendTimeout, sendCuts, ClientSendTimeoutException::new);
        // A timeout fires between 1 and 1.25 times its length; a shorter one takes effect within a tick.
        tickMillis = Math.max(10, Math.min(1_000, Math.min(bodyTimeout.toMillis(), sendTimeout.toMillis()) / 4));
    }

    /** A body stream whose reads are watched, each one and their rate. */
    InputStream watch(InputStream body) {
        return new WatchedBody(body, this.body, minRate);
    }

    /** An answer stream whose writes (and flushes) are watched. */
    OutputStream watch(OutputStream answer) {
        return new WatchedAnswer(answer, send);
    }

    /** How many requests were cut for a stalled body: exported as a metric. */
    long bodyTimeouts() {
        return bodyCuts.sum();
    }

    /** How many answers were cut for a client that stopped reading: exported as a metric. */
    long sendTimeouts() {
        return sendCuts.sum();
    }

    @Override
    public void close() {
        watchdog.interrupt();
    }

    private void watch() {
        while (!Thread.currentThread().isInterrupted()) {
            try {
                Thread.sleep(tickMillis);
            } catch (InterruptedException e) {
                return;
            }
            long now = System.nanoTime();
            for (int i = 0; i < SLOTS; i++) {
                Call call = slots.get(i);
                if (call != null && now - call.since > call.limitNanos) {
                    call.expire();
                }
            }
            for (Call call : overflow) {
                if (now - call.since > call.limitNanos) {
                    call.expire();
                }
            }
        }
    }

    /** One blocking read or write, from its start until it returns. */
    private static final class Call {
        private final Thread thread = Thread.currentThread();
        private final long since = System.nanoTime();
        private final long limitNanos;
        private int slot = -1;   // -1: in the overflow set
        private boolean done;    // guarded by this
        private boolean expired; // guarded by this

        Call(Duration limit) {
            this.limitNanos = limit.toNanos();
        }

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

    /** A blocking call on the client's socket; returns a count, or 0. */
    @FunctionalInterface
    private interface Blocking {
        long call() throws IOException;
    }

    /** One direction: its limit, its counter and what a cut call throws. */
    private record Direction(Duration limit, LongAdder cut, Function<Duration, SocketTimeoutException> failure) {
    }

    private long watched(Direction direction, Blocking blocking) throws IOException {
        Call call = new Call(direction.limit());
        begin(call);
        long result;
        try {
            result = blocking.call();
        } catch (IOException | RuntimeException e) {
            // Helidon reports a closed socket in more than one way (UncheckedIOException, its own
            // runtime exceptions): whichever it is, a cut call says so
            if (end(call)) {
                throw expired(direction, e);
            }
            throw e;
        } catch (Error e) {
            end(call);
            throw e;
        }
        if (end(call)) {
            throw expired(direction, null); // returned as it was cut: the socket is closed all the same
        }
        return result;
    }

    private void begin(Call call) {
        int start = (int) (call.thread.threadId() * 0x9E3779B97F4A7C15L >>> 40);
        for (int probe = 0; probe < PROBES; probe++) {
            int slot = (start + probe) & (SLOTS - 1);
            if (slots.get(slot) == null && slots.compareAndSet(slot, null, call)) {
                call.slot = slot;
                return;
            }
        }
        overflow.add(call);
    }

    private boolean end(Call call) {
        if (call.slot >= 0) {
            slots.set(call.slot, null);
        } else {
            overflow.remove(call);
        }
        return call.end();
    }

    private static IOException expired(Direction direction, Exception cause) {
        direction.cut().increment();
        SocketTimeoutException e = direction.failure().apply(direction.limit());
        if (cause != null) {
            e.initCause(cause);
        }
        return e;
    }

    private final class WatchedBody extends FilterInputStream {

        private final Direction body;
        private final long minRate;
        private final long started = System.nanoTime();
        private long bytes;

        WatchedBody(InputStream in, Direction body, long minRate) {
            super(in);
            this.body = body;
            this.minRate = minRate;
        }

        @Override
        public int read() throws IOException {
            byte[] one = new byte[1];
            return read(one, 0, 1) < 0 ? -1 : one[0] & 0xFF;
        }

        @Override
        public int read(byte[] buffer, int offset, int length) throws IOException {
            int n = (int) watched(body, () -> in.read(buffer, offset, length));
            if (n > 0 && minRate > 0) {
                bytes += n;
                tooSlow();
            }
            return n;
        }

        // Each read may take up to the body timeout, so a trickle of a byte per read would hold
        // the request's slot for as long as it liked: past the body timeout the body must also
        // have averaged minRate bytes a second (Apache's mod_reqtimeout, MinRate).
        private void tooSlow() throws ClientBodyTimeoutException {
            long allowed = body.limit().toNanos() + bytes * 1_000_000_000L / minRate;
            if (System.nanoTime() - started > allowed) {
                bodyCuts.increment();
                throw new ClientBodyTimeoutException(bytes, minRate);
            }
        }
    }

    private final class WatchedAnswer extends FilterOutputStream {

        private final Direction send;

        WatchedAnswer(OutputStream out, Direction send) {
            super(out);
            this.send = send;
        }

        @Override
        public void write(int b) throws IOException {
            write(new byte[] {(byte) b}, 0, 1);
        }

        @Override
        public void write(byte[] buffer, int offset, int length) throws IOException {
            watched(send, () -> {
                out.write(buffer, offset, length);
                return 0;
            });
        }

        @Override
        public void flush() throws IOException {
            watched(send, () -> {
                out.flush();
                return 0;
            });
        }

        // Not FilterOutputStream's flush-then-close: the answer's own close ends it, so that the
        // last bytes and the end of a chunked body can leave in one write (LeanAnswer).
        @Override
        public void close() throws IOException {
            watched(send, () -> {
                out.close();
                return 0;
            });
        }
    }

    /** The client paused longer than the timeout while sending its body. */
    static final class ClientBodyTimeoutException extends SocketTimeoutException {

        private static final long serialVersionUID = 1L;

        ClientBodyTimeoutException(Duration timeout) {
            super("the client sent no body bytes for " + timeout.toMillis() + " ms");
        }

        ClientBodyTimeoutException(long bytes, long minRate) {
            super("the client sent its body slower than " + minRate + " bytes/s (" + bytes + " bytes so far)");
        }
    }

    /** The client read nothing of its answer for longer than the timeout. */
    static final class ClientSendTimeoutException extends SocketTimeoutException {

        private static final long serialVersionUID = 1L;

        ClientSendTimeoutException(Duration timeout) {
            super("the client took no answer bytes for " + timeout.toMillis() + " ms");
        }
    }
}
