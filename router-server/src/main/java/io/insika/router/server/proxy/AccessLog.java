package io.insika.router.server.proxy;

import java.io.BufferedWriter;
import java.io.IOException;
import java.io.OutputStream;
import java.io.OutputStreamWriter;
import java.io.Writer;
import java.lang.System.Logger.Level;
import java.net.InetSocketAddress;
import java.net.SocketAddress;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.LongAdder;

import io.helidon.webserver.http.ServerRequest;
import io.helidon.webserver.http.ServerResponse;

/**
 * One line per proxied request, in logfmt, written to a stream (standard output when served):
 * <pre>
 * time=2026-12-01T05:16:59.305Z client=10.0.0.9:53422 method=POST path=/v1/responses status=200
 *   bytes=1234 ms=12.410 backend=10.0.0.5:9292 placement=key key=#a1b2c3d4e5f6 error=-
 * </pre>
 * The session key appears only as a digest, and the query string not at all: both may carry
 * what a log should not (seed 004). Values a client controls are quoted and escaped, so a
 * crafted path cannot forge a second line or a field.
 *
 * <p>Request threads only format their line and hand it to a queue; one writer thread drains it
 * in batches and flushes when it runs dry. Measured under wrk, writing through
 * java.util.logging's console handler from the request threads (a lock and a flush per line)
 * cost a third of the throughput and multiplied p99 by five. A line that finds the queue full
 * is dropped and counted, never waited for: the log must not slow the proxy.
 */
final class AccessLog implements AutoCloseable {

    private static final System.Logger LOGGER = System.getLogger(AccessLog.class.getName());
    private static final int QUEUE_LINES = 65_536;
    private static final int BATCH_LINES = 1_024;
    private static final DateTimeFormatter TIME = DateTimeFormatter.ofPattern("uuuu-MM-dd'T'HH:mm:ss.SSS'Z'")
            .withZone(ZoneOffset.UTC);

    private final BlockingQueue<String> queue;
    private final Writer out;
    private final Thread writer;
    private final LongAdder dropped = new LongAdder();
    private volatile boolean closed;

    private AccessLog(OutputStream out) {
        this.queue = new ArrayBlockingQueue<>(QUEUE_LINES);
        this.out = new BufferedWriter(new OutputStreamWriter(out, StandardCharsets.UTF_8), 64 * 1024);
        this.writer = Thread.ofPlatform().daemon().name("insika-access-log").start(this::write);
    }

    /** An access log writing to this stream, or {@code null} for none. */
    static AccessLog to(OutputStream out) {
        return out == null ? null : new AccessLog(out);
    }

    /** Lines dropped because the writer could not keep up, or the stream failed. */
    long dropped() {
        return dropped.sum();
    }

    /**
     * Logs a finished (or abandoned) request.
     *
     * @param placed  where it went, or {@code null} if it failed before it was placed
     * @param error   the failure's label, or {@code null}
     * @param started {@link System#nanoTime()} when it arrived
     */
    void log(ServerRequest request, ServerResponse response, Placed placed, String error, long started) {
        long micros = (System.nanoTime() - started) / 1_000;
        StringBuilder line = new StringBuilder(224).append("time=");
        TIME.formatTo(Instant.now(), line);
        line.append(" client=").append(client(request.remotePeer().address()));
        line.append(" method=");
        value(line, request.prologue().method().text());
        line.append(" path=");
        value(line, request.prologue().uriPath().rawPath());
        line.append(" status=").append(response.status().code());
        line.append(" bytes=").append(response.bytesWritten());
        long fraction = micros % 1_000;
        line.append(" ms=").append(micros / 1_000).append(fraction < 10 ? ".00" : fraction < 100 ? ".0" : ".")
                .append(fraction);
        line.append(" backend=").append(placed == null || placed.backend() == null ? "-" : placed.backend().id());
        line.append(" placement=").append(placed == null ? "-" : placed.how().label());
        line.append(" key=").append(placed == null || placed.key() == null ? "-" : SessionKeyDigest.of(placed.key()));
        line.append(" error=").append(error == null ? "-" : error).append('\n');
        if (closed || !queue.offer(line.toString())) {
            dropped.increment();
        }
    }

    private void write() {
        List<String> batch = new ArrayList<>(BATCH_LINES);
        boolean failed = false;
        while (!(closed && queue.isEmpty())) {
            try {
                String first = queue.poll(100, TimeUnit.MILLISECONDS);
                if (first == null) {
                    continue;
                }
                batch.add(first);
                queue.drainTo(batch, BATCH_LINES - 1);
                if (failed) {
                    dropped.add(batch.size());
                } else {
                    for (String line : batch) {
                        out.write(line);
                    }
                    if (queue.isEmpty()) {
                        out.flush();
                    }
                }
            } catch (IOException e) {
                // standard output closed (a pipe whose reader left): keep serving, count the loss
                LOGGER.log(Level.WARNING, "access log stopped: cannot write it (" + e + "); lines are counted as dropped");
                dropped.add(batch.size());
                failed = true;
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return;
            } finally {
                batch.clear();
            }
        }
        try {
            out.flush();
        } catch (IOException e) {
            LOGGER.log(Level.DEBUG, "access log: final flush failed", e);
        }
    }

    /** Writes what is queued, then stops; lines logged after this are dropped. */
    @Override
    public void close() {
        closed = true;
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
        return String.valueOf(address);
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
