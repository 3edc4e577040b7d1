package io.insika.router.server.proxy;

import java.io.InputStream;
import java.io.UncheckedIOException;
import java.net.SocketAddress;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Arrays;
import java.util.Optional;

import io.helidon.common.buffers.BufferData;
import io.helidon.common.buffers.DataReader;
import io.helidon.common.concurrency.limits.Limit;
import io.helidon.common.concurrency.limits.LimitAlgorithm;
import io.helidon.http.HeaderNames;
import io.helidon.http.HeaderValues;
import io.helidon.http.Method;
import io.helidon.http.Status;
import io.helidon.webserver.CloseConnectionException;
import io.helidon.webserver.ConnectionContext;
import io.helidon.webserver.spi.ServerConnection;
import io.helidon.webserver.spi.ServerConnectionSelector;

/**
 * A client connection the router frames itself while its requests stay in {@link LeanHead}'s
 * strict subset, and Helidon's HTTP/1 connection from the first request that does not: Helidon
 * then reads that request's bytes, untouched, and every one after it. HTTP/1.0 requests, which
 * Helidon 4.5 does not serve, are always the router's: it answers them, {@code /up} included, or
 * refuses them with a 400; so are chunked request bodies, whose extensions and trailers
 * Helidon 4.5 refuses.
 */
final class LeanHttp1Connection implements ServerConnection {

    private static final System.Logger LOGGER = System.getLogger(LeanHttp1Connection.class.getName());
    private static final int MAX_HEAD = 8192;
    // Most heads fit; a connection that sends longer ones grows its own copy up to MAX_HEAD.
    // Not MAX_HEAD for all: 8 KiB per connection held across young collections crowded the
    // survivor spaces at 256 connections, and what overflowed them filled the old generation
    // until full collections of 40-55 ms every ~7 s (-Xlog:gc, wrk -c256).
    private static final int FIRST_SCRATCH = 1024;
    private static final byte[] UP_BODY = {'O', 'K'};
    // what /up looks like to a router past its connection limit: GET or HEAD, any version
    private static final byte[] UP_GET = "GET /up ".getBytes(StandardCharsets.US_ASCII);
    private static final byte[] UP_HEAD = "HEAD /up ".getBytes(StandardCharsets.US_ASCII);
    // a line of the head ends in a bare LF: refused here, as Helidon 4.5 would close without a word
    private static final int BARE_LF = -2;

    // what idleTime() says of a head that outlasted head-timeout: past any idle timeout
    private static final Duration OVERDUE = Duration.ofDays(365);

    private final ConnectionContext ctx;
    private final DataReader reader;
    private final LeanHttp1Selector listener;
    private final ProxyHandler proxy;
    private final ServerConnectionSelector helidon;
    private final String ownPath;
    private String authority;
    private SocketAddress peer;
    private byte[] scratch = new byte[FIRST_SCRATCH];
    private volatile ServerConnection handedOver;
    private volatile Thread thread;
    private volatile boolean waiting;
    private volatile boolean canRun = true;
    // when the last answer ended (or the connection began): idle time counts from here while waiting
    private volatile long lastRequest = System.nanoTime();
    // when the first byte of the head being awaited arrived; 0 before it
    private volatile long headStarted;

    LeanHttp1Connection(ConnectionContext ctx, LeanHttp1Selector listener, ServerConnectionSelector helidon) {
        this.ctx = ctx;
        this.listener = listener;
        this.ownPath = listener.ownPath();
        this.reader = ctx.dataReader();
        this.proxy = listener.proxy();
        this.helidon = helidon;
    }

    @Override
    public void handle(Limit limit) throws InterruptedException {
        thread = Thread.currentThread();
        OpenLimit connections = listener.connections();
        if (!connections.tryTake()) {
            answerOverLimit();
            return;
        }
        try {
            serveConnection(limit);
        } finally {
            connections.give();
        }
    }

    // Past max-connections: /up answered, anything else the retry envelope, both closing, from the
    // bytes the first read brought (the listener read them to choose this connection): a client
    // that sends less has no claim on a full router's time.
    private void answerOverLimit() {
        int n = Math.min(reader.available(), scratch.length);
        if (n > 0) {
            reader.getBuffer(n).read(scratch, 0, n);
        }
        LeanAnswer answer = new LeanAnswer(ctx.dataWriter(), new LeanAnswer.Scratch(), true, true);
        try {
            if (startsWith(scratch, n, UP_GET) || startsWith(scratch, n, UP_HEAD)) {
                answer.header(HeaderValues.CONTENT_TYPE_TEXT_PLAIN);
                answer.send(startsWith(scratch, n, UP_GET) ? UP_BODY : new byte[0]);
            } else {
                Outcome.OVERLOADED.send(answer, false, RequestId.next()); // no head was read: a new id
            }
        } catch (RuntimeException ignored) {
            // the client is gone
        }
    }

    private static boolean startsWith(byte[] bytes, int length, byte[] prefix) {
        return length >= prefix.length && Arrays.equals(bytes, 0, prefix.length, prefix, 0, prefix.length);
    }

    private void serveConnection(Limit limit) throws InterruptedException {
        if (ctx.proxyProtocolData().isPresent()) {
            handOver(limit); // Helidon adds the forwarding fields it carries
            return;
        }
        boolean leanHttp11 = listener.leanHttp11();
        long maxPayload = ctx.listenerContext().config().maxPayloadSize();
        while (canRun) {
            int end;
            waiting = true;
            try {
                end = awaitHead();
            } catch (DataReader.InsufficientDataAvailableException | UncheckedIOException e) {
                return; // the client closed between requests, or was closed as idle or too slow
            } finally {
                waiting = false;
                headStarted = 0;
            }
            if (end == BARE_LF) {
                refuse(Status.BAD_REQUEST_400);
                return;
            }
            LeanHead head = end < 0 ? null : LeanHead.parse(scratch, end, ownPath, this::authority);
            // the request line is looked at again only when the head was not one to parse
            boolean http10 = head != null ? head.http10()
                    : LeanHead.isHttp10(scratch, Math.min(scratch.length, reader.available()));
            if (http10) {
                if (!serveHttp10(head, end, maxPayload, limit)) {
                    return;
                }
                lastRequest = System.nanoTime();
                continue;
            }
            if (head != null && !leanHttp11 && head.contentLength() >= 0) {
                head = null; // only chunked bodies stay: Helidon 4.5 refuses chunk extensions and trailers
            }
            // Helidon answers what it refuses (a body past max-payload-size, the listener's limit)
            Optional<LimitAlgorithm.Token> permit = head == null
                    || maxPayload >= 0 && (head.contentLength() > maxPayload || head.contentLength() < 0)
                    ? Optional.empty() : limit.tryAcquire(true);
            if (permit.isEmpty()) {
                handOver(limit);
                return;
            }
            reader.skip(end);
            if (!serve(head, permit.get())) {
                return;
            }
            lastRequest = System.nanoTime();
        }
    }

    // An HTTP/1.0 request: proxied, /up answered, anything else refused, as Helidon cannot take
    // it. Whether the connection may carry another.
    private boolean serveHttp10(LeanHead head, int end, long maxPayload, Limit limit) {
        if (head == null || maxPayload >= 0 && head.contentLength() > maxPayload) {
            refuse(head == null ? Status.BAD_REQUEST_400 : Status.REQUEST_ENTITY_TOO_LARGE_413);
            return false;
        }
        reader.skip(end);
        if (head.prologue().uriPath().path().equals(ownPath)) {
            LeanAnswer answer = new LeanAnswer(ctx.dataWriter(), new LeanAnswer.Scratch(), head.close(), true);
            answer.header(HeaderValues.CONTENT_TYPE_TEXT_PLAIN);
            if (head.prologue().method() == Method.HEAD) {
                answer.header(HeaderNames.CONTENT_LENGTH, Integer.toString(UP_BODY.length));
                answer.send();
            } else {
                answer.send(UP_BODY);
            }
            return !head.close() && head.contentLength() == 0;
        }
        Optional<LimitAlgorithm.Token> permit = limit.tryAcquire(true);
        if (permit.isEmpty()) {
            refuse(Status.SERVICE_UNAVAILABLE_503);
            return false;
        }
        return serve(head, permit.get());
    }

    // One request under the listener's limit: the permit's outcome is the request's
    private boolean serve(LeanHead head, LimitAlgorithm.Token permit) {
        try {
            boolean again = serve(head);
            permit.success();
            return again;
        } catch (RuntimeException | Error e) {
            permit.dropped();
            throw e;
        }
    }

    // An answer of the router's own, and the connection closes: what follows is not read.
    private void refuse(Status status) {
        LeanAnswer answer = new LeanAnswer(ctx.dataWriter(), new LeanAnswer.Scratch(), true, true);
        answer.status(status);
        try {
            answer.send();
        } catch (RuntimeException ignored) {
            // the client is gone
        }
    }

    // the client's address, asked once: Helidon makes a new PeerInfo on every ask
    private SocketAddress peer() {
        if (peer == null) {
            peer = ctx.remotePeer().address();
        }
        return peer;
    }

    // host:port the client reached, the Host of an HTTP/1.0 request that sent none
    private String authority() {
        if (authority == null) {
            String host = ctx.localPeer().host();
            authority = (host.indexOf(':') >= 0 ? "[" + host + "]" : host) + ":" + ctx.localPeer().port();
        }
        return authority;
    }

    // Helidon's HTTP/1 connection reads from here on, starting with the bytes not consumed
    private void handOver(Limit limit) throws InterruptedException {
        ServerConnection connection = helidon.connection(ctx);
        handedOver = connection;
        listener.handedOver();
        connection.handle(limit);
    }

    // One request: whether the connection may carry another
    private boolean serve(LeanHead head) {
        InputStream body = head.contentLength() > 0 ? new LeanBody(reader, head.contentLength())
                : head.contentLength() < 0 ? new LeanChunkedBody(reader) : null;
        LeanAnswer.Scratch scratch = LeanAnswer.Scratch.borrow();
        try {
            return serveWith(head, body, new LeanAnswer(ctx.dataWriter(), scratch, head.close(), head.http10()));
        } finally {
            scratch.giveBack();
        }
    }

    private boolean serveWith(LeanHead head, InputStream body, LeanAnswer answer) {
        try {
            proxy.proxy(new ClientRequest(head.prologue(), head.headers(), peer(),
                    ctx.isSecure(), body), answer, true);
        } catch (CloseConnectionException e) {
            return false;
        } catch (RuntimeException e) {
            LOGGER.log(System.Logger.Level.WARNING, "request failed", e);
            if (!answer.isSent()) {
                answer.status(Status.INTERNAL_SERVER_ERROR_500);
                answer.clearHeaders();
                answer.header(HeaderValues.CONNECTION_CLOSE);
                try {
                    answer.send();
                } catch (RuntimeException ignored) {
                    // the client is gone too
                }
            }
            return false;
        }
        // a body not read to its end must never be read as the next request
        return answer.isSent() && !answer.closes() && (body == null || ((FramedBody) body).consumed());
    }

    // Peeks until the head's empty line: its end, or -1 when the head is longer than MAX_HEAD
    // (Helidon then reads it from the same bytes), or BARE_LF.
    private int awaitHead() {
        int scanned = 0;
        while (true) {
            reader.ensureAvailable();
            if (headStarted == 0) {
                headStarted = System.nanoTime();
            }
            int available = reader.available();
            int n = Math.min(available, scratch.length);
            BufferData peek = reader.getBuffer(n);
            peek.read(scratch, 0, n);
            for (int i = scanned; i < n; i++) {
                if (scratch[i] == '\n') {
                    if (i == 0 || scratch[i - 1] != '\r') {
                        return BARE_LF;
                    }
                    if (i >= 3 && scratch[i - 2] == '\n') {
                        return i + 1;
                    }
                }
            }
            if (n >= MAX_HEAD) {
                return -1;
            }
            scanned = n;
            if (available > n) {
                scratch = Arrays.copyOf(scratch, Math.min(MAX_HEAD, scratch.length * 2)); // more is here already
            } else {
                reader.pullData();
            }
        }
    }

    /**
     * While a request is awaited: how long since the last one ended, or, once a head began to
     * arrive, nothing until it outlasts head-timeout and then more than any idle timeout. Helidon
     * closes a connection whose idle time passes {@code server.idle-timeout}.
     */
    @Override
    public Duration idleTime() {
        ServerConnection connection = handedOver;
        if (connection != null) {
            return connection.idleTime();
        }
        if (!waiting) {
            return Duration.ZERO;
        }
        long now = System.nanoTime();
        long started = headStarted;
        if (started != 0) {
            return now - started > listener.headTimeoutNanos() ? OVERDUE : Duration.ZERO;
        }
        return Duration.ofNanos(now - lastRequest);
    }

    @Override
    public void close(boolean interrupt) {
        ServerConnection connection = handedOver;
        if (connection != null) {
            connection.close(interrupt);
            return;
        }
        canRun = false;
        Thread current = thread;
        if (current != null && (interrupt || waiting)) {
            current.interrupt();
        }
    }
}
