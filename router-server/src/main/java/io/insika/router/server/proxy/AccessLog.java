package io.insika.router.server.proxy;

import java.io.BufferedWriter;
import java.io.IOException;
import java.io.OutputStreamWriter;
import java.io.StringWriter;
import java.io.UncheckedIOException;
import java.io.Writer;
import java.lang.System.Logger.Level;
import java.net.InetSocketAddress;
import java.net.SocketAddress;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.Queue;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.LongAdder;
import java.util.concurrent.locks.LockSupport;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonGenerator;
import io.helidon.http.HeaderName;
import io.helidon.http.HeaderNames;
import io.insika.router.api.Backend;
import io.insika.router.server.logging.LogFormat;

/**
 * One line per proxied request, in logfmt or (with {@code logging.format: json}) as one JSON
 * object with the same fields, written to a stream (standard output when served):
 * <pre>
 * time=2026-12-01T05:16:59.305Z client=10.0.0.9:53422 method=POST path=/v1/responses status=200
 *   bytes=1234 ms=12.410 backend=10.0.0.5:9292 placement=key key=#a1b2c3d4e5f6 error=-
 *   request_id=5f0c3e9a1b7d4c26-1a host=api.example.com protocol=HTTP/1.1 user_agent="curl/8.5.0"
 *   bytes_in=310 backend_ms=11.902
 * </pre>
 * The session key appears only as a digest (a path segment that is the key is written
 * {@code {key}}), and neither the query string nor the authority of an absolute-form target
 * ({@code http://user:pass@host/}) at all: each may carry what a log should not (seed 004). Values a client controls are quoted and escaped, so a
 * crafted path cannot forge a second line or a field.
 *
 * <p>Request threads only format their line and hand it to a lock-free queue; one writer thread
 * drains it and flushes when it runs dry, so under load many lines leave in one write. Measured
 * under wrk, writing through java.util.logging's console handler from the request threads (a
 * lock and a flush per line) cost a third of the throughput and multiplied p99 by five. A line
 * that finds the queue full is dropped and counted, never waited for: the log must not slow
 * the proxy.
 */
final class AccessLog implements AutoCloseable {

    private static final System.Logger LOGGER = System.getLogger(AccessLog.class.getName());
    private static final int QUEUE_LINES = 65_536;
    private static final JsonFactory JSON = new JsonFactory();
    // How long lines gather before a write: how late a line may appear, at most.
    private static final long GATHER_NANOS = 10_000_000;
    private static final DateTimeFormatter TIME_TO_SECOND = DateTimeFormatter.ofPattern("uuuu-MM-dd'T'HH:mm:ss.")
            .withZone(ZoneOffset.UTC);

    // Lock-free on the request side: request threads never wait on each other or on the writer.
    private final Queue<String> queue = new ConcurrentLinkedQueue<>();
    private final AtomicInteger queued = new AtomicInteger();
    private final AtomicBoolean writerParked = new AtomicBoolean();
    private final Writer out;
    private final boolean json;
    private final Thread writer;
    private final LongAdder dropped = new LongAdder();
    private volatile boolean closed;
    private volatile Second second = new Second(Long.MIN_VALUE, "");

    /** The formatted time up to the second, reused by every line within it. */
    private record Second(long epochSecond, String text) {
    }

    private AccessLog(AccessLogTarget target) {
        this.json = target.format() == LogFormat.JSON;
        this.out = new BufferedWriter(new OutputStreamWriter(target.out(), StandardCharsets.UTF_8), 64 * 1024);
        this.writer = Thread.ofPlatform().daemon().name("insika-access-log").start(this::write);
    }

    /** An access log writing there, or {@code null} for none. */
    static AccessLog to(AccessLogTarget target) {
        return target == null ? null : new AccessLog(target);
    }

    /** Lines dropped because the writer could not keep up, or the stream failed. */
    long dropped() {
        return dropped.sum();
    }

    /**
     * The path with every segment that is the session key (as sent, or percent-decoded) written
     * {@code {key}}: a key taken from the path must not reach the log in clear through it.
     */
    static String withoutKey(String rawPath, String key) {
        if (key.isEmpty() || rawPath.indexOf('/') < 0) {
            return rawPath;
        }
        String[] segments = rawPath.split("/", -1);
        boolean masked = false;
        for (int i = 0; i < segments.length; i++) {
            if (segments[i].equals(key) || decoded(segments[i]).equals(key)) {
                segments[i] = "{key}";
                masked = true;
            }
        }
        return masked ? String.join("/", segments) : rawPath;
    }

    // RFC 3986 percent-decoding of one segment ('+' is a plus in a path); a malformed escape is kept as is
    private static String decoded(String segment) {
        if (segment.indexOf('%') < 0) {
            return segment;
        }
        try {
            return java.net.URLDecoder.decode(segment.replace("+", "%2B"), java.nio.charset.StandardCharsets.UTF_8);
        } catch (IllegalArgumentException e) {
            return segment;
        }
    }

    /**
     * Logs a finished (or abandoned) request, or a WebSocket tunnel once it closed: where it went,
     * what its client got, how it ended, and how long it took from its head's arrival.
     */
    void log(ProxyCall call) {
        Entry entry = new Entry(call);
        String line = json ? jsonLine(entry) : textLine(entry);
        if (closed || queued.incrementAndGet() > QUEUE_LINES) {
            queued.decrementAndGet();
            dropped.increment();
            return;
        }
        queue.offer(line);
        if (writerParked.get() && writerParked.compareAndSet(true, false)) {
            LockSupport.unpark(writer);
        }
    }

    /** One line's fields, formatted either way; absent values are null. */
    private static final class Entry {
        final long millis = System.currentTimeMillis();
        final long micros;
        final String client;
        final String method;
        final String path;
        final int status;
        final long bytes;
        final String backend;
        final String placement;
        final String key;
        final String error;
        final String requestId;
        final String host;
        final String protocol;
        final String userAgent;
        final long bytesIn;
        final long backendMicros;

        Entry(ProxyCall call) {
            micros = (System.nanoTime() - call.started()) / 1_000;
            ClientRequest request = call.request();
            Placed placed = call.placed();
            String sessionKey = placed == null ? null : placed.lookup().key();
            String rawPath = call.target().path();
            Backend owner = call.backend();
            client = client(request.peer());
            method = request.prologue().method().text();
            path = sessionKey == null ? rawPath : withoutKey(rawPath, sessionKey);
            status = call.status();
            bytes = call.bytesSent();
            backend = owner == null ? null : owner.id();
            placement = placed == null ? null : placed.lookup().how().label();
            key = sessionKey == null ? null : SessionKeyDigest.of(sessionKey);
            error = call.outcome().label();
            requestId = call.requestId();
            // the Host field, never an absolute-form target's authority: that may hold credentials
            host = request.headers().first(HeaderNames.HOST).orElse(null);
            protocol = request.prologue().rawProtocol();
            userAgent = request.headers().first(HeaderNames.USER_AGENT).orElse(null);
            bytesIn = call.bytesReceived();
            long headNanos = call.backendHeadNanos();
            backendMicros = headNanos < 0 ? -1 : headNanos / 1_000;
        }
    }

    // logfmt: absent values as -, values a client controls quoted when they need it
    private String textLine(Entry e) {
        StringBuilder line = new StringBuilder(224).append("time=");
        time(line, e.millis);
        line.append(" client=").append(e.client);
        line.append(" method=");
        value(line, e.method);
        line.append(" path=");
        value(line, e.path);
        line.append(" status=").append(e.status);
        line.append(" bytes=").append(e.bytes);
        line.append(" ms=");
        millisText(line, e.micros);
        line.append(" backend=").append(e.backend == null ? "-" : e.backend);
        line.append(" placement=").append(e.placement == null ? "-" : e.placement);
        line.append(" key=").append(e.key == null ? "-" : e.key);
        line.append(" error=").append(e.error == null ? "-" : e.error);
        line.append(" request_id=");
        value(line, e.requestId);
        line.append(" host=");
        optional(line, e.host);
        line.append(" protocol=");
        value(line, e.protocol);
        line.append(" user_agent=");
        optional(line, e.userAgent);
        line.append(" bytes_in=").append(e.bytesIn);
        line.append(" backend_ms=");
        if (e.backendMicros < 0) {
            line.append('-');
        } else {
            millisText(line, e.backendMicros);
        }
        return line.append('\n').toString();
    }

    // The same fields as one JSON object; absent values are null, numbers are numbers.
    private String jsonLine(Entry e) {
        StringBuilder time = new StringBuilder(24);
        time(time, e.millis);
        StringWriter line = new StringWriter(256);
        try (JsonGenerator out = JSON.createGenerator(line)) {
            out.writeStartObject();
            out.writeStringField("time", time.toString());
            out.writeStringField("client", e.client);
            out.writeStringField("method", e.method);
            out.writeStringField("path", e.path);
            out.writeNumberField("status", e.status);
            out.writeNumberField("bytes", e.bytes);
            out.writeFieldName("ms");
            out.writeRawValue(millisText(new StringBuilder(12), e.micros).toString());
            out.writeStringField("backend", e.backend);
            out.writeStringField("placement", e.placement);
            out.writeStringField("key", e.key);
            out.writeStringField("error", e.error);
            out.writeStringField("request_id", e.requestId);
            out.writeStringField("host", e.host);
            out.writeStringField("protocol", e.protocol);
            out.writeStringField("user_agent", e.userAgent);
            out.writeNumberField("bytes_in", e.bytesIn);
            out.writeFieldName("backend_ms");
            if (e.backendMicros < 0) {
                out.writeNull();
            } else {
                out.writeRawValue(millisText(new StringBuilder(12), e.backendMicros).toString());
            }
            out.writeEndObject();
        } catch (IOException failure) {
            throw new UncheckedIOException(failure); // a StringWriter does not fail
        }
        return line.append('\n').toString();
    }

    // microseconds as milliseconds with three decimals, 12.410
    private static StringBuilder millisText(StringBuilder line, long micros) {
        long fraction = micros % 1_000;
        return line.append(micros / 1_000).append(fraction < 10 ? ".00" : fraction < 100 ? ".0" : ".").append(fraction);
    }

    private void time(StringBuilder line, long millis) {
        long epochSecond = Math.floorDiv(millis, 1000);
        Second now = second;
        if (now.epochSecond() != epochSecond) {
            now = new Second(epochSecond, TIME_TO_SECOND.format(Instant.ofEpochSecond(epochSecond)));
            second = now;
        }
        long fraction = Math.floorMod(millis, 1000);
        line.append(now.text()).append(fraction < 10 ? "00" : fraction < 100 ? "0" : "").append(fraction).append('Z');
    }

    private void write() {
        boolean failed = false;
        while (true) {
            awaitLines();
            int taken = 0;
            int buffered = 0; // lines in the writer's buffer, lost with it if the stream fails
            try {
                for (String line = queue.poll(); line != null; line = queue.poll()) {
                    taken++;
                    if (failed) {
                        dropped.increment();
                    } else {
                        buffered++;
                        out.write(line);
                    }
                }
                if (!failed) {
                    out.flush(); // ran dry: what was written is visible now, in one write
                }
            } catch (IOException e) {
                // standard output closed (a pipe whose reader left): keep serving, count the loss
                LOGGER.log(Level.WARNING, "access log stopped: cannot write it (" + e + "); lines are counted as dropped");
                dropped.add(buffered);
                failed = true;
                continue; // drop the rest of the queue too
            } finally {
                queued.addAndGet(-taken);
            }
            if (closed && queue.isEmpty()) {
                return;
            }
        }
    }

    // Idle, the writer sleeps until a request wakes it. Woken, it lets lines gather for a moment
    // before writing them in one go: waking a thread and writing once per request cost as much
    // as the lock it replaced (a quarter of the throughput at 256 connections).
    private void awaitLines() {
        if (queue.isEmpty() && !closed) {
            // announce the park, then re-check, so a line queued in between is never left waiting
            writerParked.set(true);
            if (queue.isEmpty() && !closed) {
                LockSupport.park(this);
            }
            writerParked.set(false);
        }
        if (!closed) {
            LockSupport.parkNanos(this, GATHER_NANOS);
        }
    }

    /** Writes what is queued, then stops; lines logged after this are dropped. */
    @Override
    public void close() {
        closed = true;
        LockSupport.unpark(writer);
        try {
            writer.join(5_000);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    private static String client(SocketAddress address) {
        if (address instanceof InetSocketAddress inet) {
            String host = inet.getAddress() == null ? inet.getHostString() : inet.getAddress().getHostAddress();
            return (host.indexOf(':') >= 0 ? "[" + host + "]" : host) + ":" + inet.getPort();
        }
        return address == null ? "-" : address.toString();
    }

    private static void optional(StringBuilder line, String value) {
        if (value == null) {
            line.append('-');
        } else {
            value(line, value);
        }
    }

    // logfmt: bare when it can be, else quoted with \" \\ and control characters escaped
    static void value(StringBuilder line, String value) {
        boolean bare = !value.isEmpty();
        for (int i = 0; i < value.length() && bare; i++) {
            char c = value.charAt(i);
            bare = c > ' ' && c < 0x7f && c != '"' && c != '=' && c != '\\';
        }
        if (bare) {
            line.append(value);
            return;
        }
        line.append('"');
        for (int i = 0; i < value.length(); i++) {
            char c = value.charAt(i);
            switch (c) {
                case '"' -> line.append("\\\"");
                case '\\' -> line.append("\\\\");
                case '\n' -> line.append("\\n");
                case '\r' -> line.append("\\r");
                case '\t' -> line.append("\\t");
                default -> {
                    if (c < ' ' || c == 0x7f) {
                        line.append(String.format("\\u%04x", (int) c));
                    } else {
                        line.append(c);
                    }
                }
            }
        }
        line.append('"');
    }
}
