package io.insika.router.server.upstream;

import java.io.EOFException;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.SocketTimeoutException;
import java.net.StandardSocketOptions;
import java.nio.ByteBuffer;
import java.nio.channels.SocketChannel;
import java.security.NoSuchAlgorithmException;
import java.time.Duration;

import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLParameters;
import javax.net.ssl.SSLSocket;

import io.insika.router.api.Backend;

/**
 * One HTTP/1.1 connection to one backend, used by one exchange at a time: a socket, a read
 * buffer the response parser works in, and the clock the timeout watchdog reads.
 *
 * <p>Why a channel: before a kept-alive connection is reused, {@link #isReusable(long, boolean)} looks at
 * it with one non-blocking read. A backend that closed it while idle (its keep-alive timeout, a
 * restart) shows as end-of-stream, and bytes it sent after its answer as data, so the request
 * goes on a fresh connection before any byte of it was sent. No watcher thread per idle
 * connection is needed for that. A connection taken again within {@link #PROBE_AFTER} of its
 * release is not probed (see there).
 *
 * <p>Why no socket read timeout: a timed read on a virtual thread arms and cancels a timer in
 * the scheduler on every read, which cost ~10% of the proxy's CPU under load. Instead each
 * blocking operation notes when it started waiting ({@link #waitingSince()}), and
 * {@link BackendClient}' watchdog closes a connection whose wait exceeds the backend
 * timeout; the blocked read then fails and {@link #timedOut()} tells why.
 */
final class BackendConnection implements WireInput, WireOutput, AutoCloseable {

    private static final int READ_BUFFER = 8192;
    /**
     * How long a released connection goes unprobed. The probe is a read that finds nothing (an
     * EAGAIN) on nearly every reuse, ~6% of the router's CPU per request under load (with it
     * skipped, bench/cpu-ab.sh 6 10 32: 50.1 against 53.4 µs). Backends close kept connections
     * after seconds of idleness (gunicorn 2 s, Node and uvicorn 5 s, nginx 75 s), never within
     * milliseconds, and a connection that was left holding bytes of its last read, or whose last
     * read filled the buffer (the socket may hold more), is probed whatever its idle time. What
     * the window gives up: a close or stray bytes arriving in the instant between a release and a
     * reuse within it, a race the probe itself has between its read and the request's write (and a
     * network's round trip makes as wide). A backend that stopped is told by its refusing a new
     * connection then ({@link BackendGoneException}: the client gets the unreachable owner's
     * answer, as after a probe); one that closes kept connections without saying so fails the
     * request written to one, and every reuse of its connections is probed for
     * {@link BackendClient#PROBE_ALL_FOR}.
     */
    static final long PROBE_AFTER = java.util.concurrent.TimeUnit.MILLISECONDS.toNanos(2);
    private static final int WRITE_BUFFER = 8192;

    private final Backend backend;
    private final SocketChannel channel;
    private final InputStream in;
    private final OutputStream out;
    // Plain connections write through the channel, whose buffer position says how many bytes
    // the kernel took even when a write fails; TLS has no such count (null here).
    private final boolean plain;
    private final ByteBuffer probe = ByteBuffer.allocate(1);
    private final byte[] buffer = new byte[READ_BUFFER];
    // Kept with the connection rather than made per request: a request head and a small body
    // are assembled here and leave in one write.
    private final byte[] writeBuffer = new byte[WRITE_BUFFER];
    private int position;
    private int limit;
    // Apart, because a streamed upload writes on one thread while the answer is read on another.
    private volatile long readingSince;
    private volatile long writingSince;
    // A backend may be silent for as long as we are still sending it the request: its answer
    // is only overdue once the request is complete.
    private volatile boolean sending;
    private volatile long requestSentAt;
    private long bytesSent;
    private volatile boolean timedOut;
    private volatile boolean closed;
    private boolean tunnel;
    private long idleSince;
    // a plain connection's last read took less than the buffer holds: the socket had nothing more then
    private boolean drained;
    // taken for the exchange under way within PROBE_AFTER of its release, without a look at it
    private boolean takenUnprobed;
    private long bytesReceived;
    // the backend timeout of the exchange under way: set at each lease, so a reload's new
    // timeout applies to exchanges begun after it and never to one in flight
    private volatile long timeoutNanos;
    // what it becomes once the answer is a stream; 0 for no limit
    private long streamIdleNanos;

    private BackendConnection(Backend backend, SocketChannel channel, InputStream in, OutputStream out, boolean plain) {
        this.backend = backend;
        this.channel = channel;
        this.in = in;
        this.out = out;
        this.plain = plain;
    }

    /**
     * Connects to the backend.
     *
     * @throws IOException if the backend cannot be reached within the timeout, or its name not resolved
     */
    static BackendConnection open(Backend backend, Duration connectTimeout) throws IOException {
        InetSocketAddress address = new InetSocketAddress(backend.host(), backend.port());
        if (address.isUnresolved()) {
            throw new IOException("cannot resolve " + backend.host());
        }
        SocketChannel channel = SocketChannel.open();
        try {
            channel.setOption(StandardSocketOptions.TCP_NODELAY, true);
            channel.setOption(StandardSocketOptions.SO_KEEPALIVE, true);
            int timeoutMillis = (int) Math.min(Integer.MAX_VALUE, Math.max(1, connectTimeout.toMillis()));
            channel.socket().connect(address, timeoutMillis);
            if ("https".equalsIgnoreCase(backend.uri().getScheme())) {
                SSLSocket tls = tls(channel, backend, timeoutMillis);
                return new BackendConnection(backend, channel, tls.getInputStream(), tls.getOutputStream(), false);
            }
            return new BackendConnection(backend, channel, channel.socket().getInputStream(),
                    channel.socket().getOutputStream(), true);
        } catch (IOException | RuntimeException e) {
            channel.close();
            throw e;
        }
    }

    // The JDK's default trust store and host name check apply, as for any https client; an
    // operator names a private CA with javax.net.ssl.trustStore (TlsBackendTest).
    // The handshake is part of connecting: bounded by the connect timeout, since the watchdog
    // only sees a connection once it is open. Reads after it are untimed again.
    private static SSLSocket tls(SocketChannel channel, Backend backend, int timeoutMillis) throws IOException {
        try {
            SSLSocket socket = (SSLSocket) SSLContext.getDefault().getSocketFactory()
                    .createSocket(channel.socket(), backend.host(), backend.port(), true);
            SSLParameters parameters = socket.getSSLParameters();
            parameters.setEndpointIdentificationAlgorithm("HTTPS");
            parameters.setApplicationProtocols(new String[] {"http/1.1"});
            socket.setSSLParameters(parameters);
            socket.setSoTimeout(timeoutMillis);
            socket.startHandshake();
            socket.setSoTimeout(0);
            return socket;
        } catch (NoSuchAlgorithmException e) {
            throw new IOException("no TLS available", e);
        }
    }

    Backend backend() {
        return backend;
    }

    /**
     * Whether a kept connection can take another request: it is open, nothing is left unread
     * from the last answer, and the backend has not closed it or sent anything since (looked at
     * unless it was released less than {@link #PROBE_AFTER} ago).
     *
     * @param now         {@link System#nanoTime()} at the taking
     * @param probeAnyway look whatever the idle time: the backend has closed a kept connection
     *                    under a request lately ({@link BackendClient#PROBE_ALL_FOR})
     */
    boolean isReusable(long now, boolean probeAnyway) {
        takenUnprobed = false;
        if (closed || position != limit) {
            return false;
        }
        if (drained && !probeAnyway && now - idleSince < PROBE_AFTER) {
            takenUnprobed = true;
            return true;
        }
        try {
            probe.clear();
            channel.configureBlocking(false);
            int n = channel.read(probe);
            channel.configureBlocking(true);
            return n == 0;
        } catch (IOException | RuntimeException e) {
            return false;
        }
    }

    /**
     * From now on the connection carries an upgraded protocol (a WebSocket): its silences are the
     * application's, so the backend timeout no longer applies to them.
     */
    void becomeTunnel() {
        tunnel = true;
    }

    /**
     * Writes bytes to the backend, all of them, watched by the timeout. When it fails,
     * {@link #bytesSent()} still tells how many reached the kernel: on a plain connection exactly,
     * on TLS as all of them (a record may have gone out).
     */
    @Override
    public void write(byte[] bytes, int offset, int length) throws IOException {
        writingSince = tunnel ? 0 : System.nanoTime();
        try {
            if (plain) {
                ByteBuffer buffer = ByteBuffer.wrap(bytes, offset, length);
                try {
                    while (buffer.hasRemaining()) {
                        channel.write(buffer);
                    }
                } finally {
                    bytesSent += buffer.position() - offset;
                }
            } else {
                bytesSent += length; // before: a TLS write that fails part-way may have sent some
                out.write(bytes, offset, length);
            }
        } catch (IOException e) {
            throw translate(e);
        } finally {
            writingSince = 0;
        }
    }

    /** How many request bytes this connection has taken since {@link #startExchange()}. */
    @Override
    public long bytesSent() {
        return bytesSent;
    }

    /** A new exchange begins: nothing of its request is sent yet, and the backend owes no answer. */
    @Override
    public void startExchange() {
        bytesSent = 0;
        sending = true;
    }

    /** The request is all sent: from now on the backend's silence counts against it. */
    @Override
    public void requestSent() {
        requestSentAt = System.nanoTime();
        sending = false;
    }

    /**
     * Ends our direction only (TCP half-close): the backend reads the end of the stream and may
     * still send what it has left.
     */
    void shutdownOutput() throws IOException {
        if (plain) {
            channel.shutdownOutput();
        } else {
            close(); // a TLS half-close is not supported by every peer: end the tunnel instead
        }
    }

    /** Flushes what the stream may hold (a TLS record); a no-op on plain connections. */
    @Override
    public void flush() throws IOException {
        out.flush();
    }

    /**
     * Makes sure at least one unread byte is in the buffer.
     *
     * @return false at end of stream
     */
    @Override
    public boolean fill() throws IOException {
        if (position < limit) {
            return true;
        }
        position = 0;
        limit = 0;
        readingSince = tunnel ? 0 : System.nanoTime();
        try {
            int n = in.read(buffer, 0, buffer.length);
            if (n <= 0) {
                return false;
            }
            limit = n;
            bytesReceived += n;
            drained = plain && n < buffer.length; // TLS may hold a record it has not handed out
            return true;
        } catch (IOException e) {
            throw translate(e);
        } finally {
            readingSince = 0;
        }
    }

    /** Like {@link #fill()}, but end of stream is an error: the answer was cut. */
    @Override
    public void require() throws IOException {
        if (!fill()) {
            throw new EOFException("backend " + backend.id() + " closed the connection mid-answer");
        }
    }

    @Override
    public byte[] writeBuffer() {
        return writeBuffer;
    }

    @Override
    public byte[] buffer() {
        return buffer;
    }

    @Override
    public int position() {
        return position;
    }

    @Override
    public int limit() {
        return limit;
    }

    @Override
    public void consume(int count) {
        position += count;
    }

    /**
     * When the longest-waiting blocking read or write started, or 0 if none is under way. A read
     * counts only from the moment the request was all sent: until then the backend may rightly
     * wait for the rest of an upload (each of whose writes is watched on its own).
     */
    long waitingSince() {
        long reading = readingSince;
        if (reading != 0) {
            long sent = requestSentAt;
            reading = sending ? 0 : (sent - reading > 0 ? sent : reading);
        }
        long writing = writingSince;
        if (reading == 0 || writing == 0) {
            return reading == 0 ? writing : reading;
        }
        return reading - writing < 0 ? reading : writing;
    }

    /** How long the exchange under way may wait on one read or write. */
    long timeoutNanos() {
        return timeoutNanos;
    }

    /** The backend timeout of the exchange about to begin, and the one its answer has if a stream. */
    void timeouts(long nanos, long streamIdle) {
        timeoutNanos = nanos;
        streamIdleNanos = streamIdle;
    }

    /**
     * The answer under way is a stream whose head reached the client: from now on the backend may
     * be silent for the stream idle timeout, an event stream's pause between events being the
     * application's, not a failure.
     */
    @Override
    public void becomeStream() {
        timeoutNanos = streamIdleNanos == 0 ? Long.MAX_VALUE : streamIdleNanos;
    }

    /** Whether the watchdog closed this connection because the backend stayed silent too long. */
    boolean timedOut() {
        return timedOut;
    }

    /** Called by the watchdog: the blocked operation fails, and reports a timeout. */
    void expire() {
        timedOut = true;
        close();
    }

    long idleSince() {
        return idleSince;
    }

    void idleSince(long nanos) {
        idleSince = nanos;
    }

    /**
     * Whether it was taken for the exchange under way without the look that finds a close the
     * backend sent while it was idle ({@link #PROBE_AFTER}).
     */
    boolean takenUnprobed() {
        return takenUnprobed;
    }

    /** Bytes read from the backend since the connection was made. */
    long bytesReceived() {
        return bytesReceived;
    }

    boolean isClosed() {
        return closed;
    }

    @Override
    public void close() {
        closed = true;
        try {
            channel.close();
        } catch (IOException ignored) {
            // closing is all that was wanted
        }
    }

    private IOException translate(IOException e) {
        if (timedOut) {
            SocketTimeoutException timeout = new SocketTimeoutException("backend " + backend.id() + " silent too long");
            timeout.initCause(e);
            return timeout;
        }
        return e;
    }
}
