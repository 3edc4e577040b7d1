package io.insika.router.server.proxy;

import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicReferenceArray;

import io.helidon.common.buffers.BufferData;
import io.helidon.common.buffers.DataWriter;
import io.helidon.http.DateTime;
import io.helidon.http.Header;
import io.helidon.http.HeaderName;
import io.helidon.http.HeaderNames;
import io.helidon.http.Status;
import io.helidon.webserver.ServerConnectionException;

/**
 * An answer the lean connection frames: the head as Helidon's HTTP/1 response writes it (status
 * line, {@code Date}, {@code Connection}, the fields), then the body with the length it was
 * given, or chunked; to an HTTP/1.0 client, which cannot read chunks, a body of unknown length
 * ends with the connection instead.
 *
 * <p>A stream's bytes are held until it is flushed, closed or holds {@link #HOLD_LIMIT}: the
 * head goes out with the body's first bytes, and a chunked body's last bytes with its last
 * chunk, in one write. The relay flushes whenever its next read of the backend would wait, so
 * holding adds no delay; the last chunk sent on its own would have waited for the client's
 * delayed ACK wherever Nagle's algorithm is on.
 */
final class LeanAnswer implements ClientAnswer {

    // past this many held bytes a write goes out without waiting for a flush
    static final int HOLD_LIMIT = 16 * 1024;
    private static final byte[] OK = "HTTP/1.1 200 OK\r\n".getBytes(StandardCharsets.US_ASCII);
    private static final byte[] SWITCHING = "HTTP/1.1 101 Switching Protocols\r\n".getBytes(StandardCharsets.US_ASCII);
    private static final byte[] DATE = "Date: ".getBytes(StandardCharsets.US_ASCII);
    private static final byte[] KEEP_ALIVE = "Connection: keep-alive\r\n".getBytes(StandardCharsets.US_ASCII);
    private static final byte[] CLOSE = "Connection: close\r\n".getBytes(StandardCharsets.US_ASCII);
    private static final byte[] CHUNKED = "Transfer-Encoding: chunked\r\n".getBytes(StandardCharsets.US_ASCII);
    private static final byte[] LAST_CHUNK = "0\r\n\r\n".getBytes(StandardCharsets.US_ASCII);
    private static final byte[] HEX = "0123456789abcdef".getBytes(StandardCharsets.US_ASCII);

    private final DataWriter writer;
    private final Scratch scratch;
    private final boolean http10;
    private final List<Header> headers;
    private Status status = Status.OK_200;
    private boolean close;
    private boolean sent;
    private long written;

    /**
     * @param writer  the client connection's writer
     * @param scratch the connection's buffers, which its answers take in turn
     * @param close   whether the connection closes after this answer
     * @param http10  whether the client speaks HTTP/1.0: no chunked coding then
     */
    LeanAnswer(DataWriter writer, Scratch scratch, boolean close, boolean http10) {
        this.writer = writer;
        this.scratch = scratch;
        this.headers = scratch.headers();
        this.close = close;
        this.http10 = http10;
    }

    /**
     * What an answer is gathered in: the list of fields and the buffer a head (with the body's
     * first bytes) is written to. A new head buffer and list per answer were a tenth of the bytes
     * a proxied request allocated, so requests take them in turn: one is {@link #borrow()}ed for a
     * request and {@link #giveBack()} to a small shared set when it ends. Shared rather than kept
     * per connection, because an idle connection must hold nothing it does not need: at the
     * connection limit, ~1 KiB more per connection was what the shipped heap did not have
     * (ConnectionFloodTest). The buffer is kept only while an answer's bytes fit {@link #KEPT}.
     */
    static final class Scratch {
        static final int INITIAL = 1024;
        static final int KEPT = 2048;
        /**
         * Spares, one per slot, a request's thread choosing its slot by its id: a connection's
         * requests find the one its last request gave back unless another connection's took it
         * meanwhile. At most SPARES × ~2.8 KiB stay, whatever the connection count.
         */
        private static final int SPARES = 256;
        private static final AtomicReferenceArray<Scratch> SPARE = new AtomicReferenceArray<>(SPARES);
        private final List<Header> headers = new ArrayList<>(16);
        // a field's name or value on its way to the head
        private final byte[] line = new byte[256];
        private BufferData buffer;

        /** A scratch for one request's answer: a spare if there is one, else a new one. */
        static Scratch borrow() {
            Scratch spare = SPARE.getAndSet(slot(), null);
            return spare != null ? spare : new Scratch();
        }

        /** Once the request's answer is done with it: kept as a spare unless one is kept already. */
        void giveBack() {
            headers.clear(); // the last answer's fields are garbage now
            SPARE.compareAndSet(slot(), null, this);
        }

        private static int slot() {
            return (int) Thread.currentThread().threadId() & (SPARES - 1);
        }

        private List<Header> headers() {
            headers.clear();
            return headers;
        }

        // the buffer, empty; until it is given back nobody else writes to it
        private BufferData take() {
            BufferData taken = buffer;
            if (taken == null) {
                return BufferData.growing(INITIAL);
            }
            buffer = null;
            taken.clear();
            return taken;
        }

        // after its bytes were written out (writeNow returns once the socket took them)
        private void giveBack(BufferData written, int size) {
            if (size <= KEPT) {
                buffer = written;
            }
        }
    }

    /** Whether the connection must close after this answer. */
    boolean closes() {
        return close;
    }

    boolean isSent() {
        return sent;
    }

    @Override
    public void status(Status status) {
        this.status = status;
    }

    @Override
    public Status status() {
        return status;
    }

    @Override
    public void header(Header header) {
        if (header.headerName().equals(HeaderNames.CONNECTION) && status.code() != 101) {
            close |= header.allValues().stream().anyMatch(v -> v.equalsIgnoreCase("close"));
            return; // written by the head itself
        }
        // as Helidon's ServerResponse.header: a name set again replaces its values
        int at = indexOf(header.headerName());
        if (at >= 0) {
            headers.set(at, header);
        } else {
            headers.add(header);
        }
    }

    @Override
    public void clearHeaders() {
        headers.clear();
    }

    @Override
    public void send() {
        BufferData head = head(indexOf(HeaderNames.CONTENT_LENGTH) >= 0 ? null : "0", true);
        write(head);
        sent = true;
    }

    @Override
    public void send(byte[] body) {
        BufferData head = head(Integer.toString(body.length), true);
        head.write(body);
        write(head);
        written = body.length;
        sent = true;
    }

    /**
     * Sends a {@code 101 Switching Protocols} head with the fields set, its {@code Connection}
     * among them, as the backend that agreed gave them: nothing of the router's own is added, and
     * the connection carries the new protocol from here.
     */
    void sendSwitch() {
        BufferData head = scratch.take();
        head.write(SWITCHING);
        for (Header header : headers) {
            writeField(head, header);
        }
        head.write('\r');
        head.write('\n');
        write(head);
        sent = true;
    }

    @Override
    public OutputStream outputStream() {
        long declared = declaredLength();
        if (declared < 0 && http10) {
            close = true; // the end of the body is the end of the connection
        }
        return new HeldStream(declared, declared < 0 && !http10);
    }

    /** The body's stream: bytes held until a flush, the close, or {@link #HOLD_LIMIT}. */
    private final class HeldStream extends OutputStream {
        private final long declared;
        private final boolean chunked;
        private BufferData held;
        private boolean headWritten;
        private boolean closed;

        HeldStream(long declared, boolean chunked) {
            this.declared = declared;
            this.chunked = chunked;
        }

        @Override
        public void write(int b) {
            write(new byte[] {(byte) b}, 0, 1);
        }

        @Override
        public void write(byte[] b, int off, int len) {
            if (len == 0) {
                return;
            }
            if (declared >= 0 && written + len > declared) {
                throw new ServerConnectionException("answer longer than its Content-Length", null);
            }
            BufferData out = holding(len + 16);
            if (chunked) {
                chunkSize(out, len);
                out.write('\r');
                out.write('\n');
                out.write(b, off, len);
                out.write('\r');
                out.write('\n');
            } else {
                out.write(b, off, len);
            }
            written += len;
            if (out.available() >= HOLD_LIMIT) {
                release();
            }
        }

        /** Sends what is held, the head at least: a stream whose body has not begun shows its head. */
        @Override
        public void flush() {
            if (!closed) {
                holding(0);
                release();
            }
        }

        @Override
        public void close() {
            if (closed) {
                return;
            }
            closed = true;
            if (!headWritten) {
                held = null;
                send();
                return;
            }
            if (declared >= 0 && written != declared) {
                // the client would wait for the rest, or read it as the next answer
                throw new ServerConnectionException("answer shorter than its Content-Length", null);
            }
            if (chunked) {
                holding(LAST_CHUNK.length).write(LAST_CHUNK);
            }
            release();
            sent = true;
        }

        // The buffer the next bytes go to, the head first if it was not written yet
        private BufferData holding(int room) {
            if (!headWritten) {
                held = head(null, false);
                if (chunked) {
                    held.write(CHUNKED);
                }
                held.write('\r');
                held.write('\n');
                headWritten = true;
            } else if (held == null) {
                held = scratch.take();
            }
            return held;
        }

        private void release() {
            if (held != null && held.available() > 0) {
                BufferData out = held;
                held = null;
                LeanAnswer.this.write(out);
            }
        }
    }

    @Override
    public long bytesWritten() {
        return written;
    }

    // The length a stream's Content-Length says, or -1 (chunked)
    private long declaredLength() {
        int at = indexOf(HeaderNames.CONTENT_LENGTH);
        return at < 0 ? -1 : Long.parseLong(headers.get(at).get());
    }

    private int indexOf(HeaderName name) {
        for (int i = 0; i < headers.size(); i++) {
            if (headers.get(i).headerName().equals(name)) {
                return i;
            }
        }
        return -1;
    }

    // The status line, Date, Connection, the fields and the length given; the empty line too
    // when ended (a stream adds its Transfer-Encoding first)
    private BufferData head(String contentLength, boolean ended) {
        BufferData head = scratch.take();
        if (status.code() == 200) {
            head.write(OK);
        } else {
            String reason = status.reasonPhrase() == null || status.reasonPhrase().isEmpty() ? status.codeText()
                    : status.reasonPhrase();
            head.write(("HTTP/1.1 " + status.code() + " " + reason + "\r\n").getBytes(StandardCharsets.US_ASCII));
        }
        if (indexOf(HeaderNames.DATE) < 0) {
            head.write(DATE);
            head.write(DateTime.http1Bytes());
        }
        head.write(close ? CLOSE : KEEP_ALIVE);
        for (Header header : headers) {
            if (contentLength == null || !header.headerName().equals(HeaderNames.CONTENT_LENGTH)) {
                writeField(head, header);
            }
        }
        if (contentLength != null) {
            head.write(("Content-Length: " + contentLength + "\r\n").getBytes(StandardCharsets.US_ASCII));
        }
        if (ended) {
            head.write('\r');
            head.write('\n');
        }
        return head;
    }

    // A chunk's size in lower-case hex, as Integer.toHexString spells it, without its String
    private static void chunkSize(BufferData out, int size) {
        for (int shift = (31 - Integer.numberOfLeadingZeros(size)) & ~3; shift >= 0; shift -= 4) {
            out.write(HEX[(size >>> shift) & 0xf]);
        }
    }

    // A field as Header.writeHttp1Header writes it, without the copies of its name's and value's
    // bytes that makes for each: one field of one value goes through the scratch's line buffer.
    // Non-ASCII becomes '?' as there; a relayed value with obs-text is a RelayedHeader, which
    // writes its own octets.
    private void writeField(BufferData head, Header header) {
        if (header.valueCount() != 1 || header instanceof RelayedHeader) {
            header.writeHttp1Header(head);
            return;
        }
        ascii(head, header.headerName().defaultCase());
        head.write(':');
        head.write(' ');
        ascii(head, header.get());
        head.write('\r');
        head.write('\n');
    }

    private void ascii(BufferData head, String text) {
        byte[] line = scratch.line;
        int length = text.length();
        if (length > line.length) {
            head.write(text.getBytes(StandardCharsets.US_ASCII));
            return;
        }
        for (int i = 0; i < length; i++) {
            char c = text.charAt(i);
            line[i] = c < 0x80 ? (byte) c : (byte) '?';
        }
        head.write(line, 0, length);
    }

    // a failed write is the client's: the connection ends, as Helidon's response says it
    private void write(BufferData data) {
        int size = data.available();
        try {
            writer.writeNow(data);
        } catch (RuntimeException e) {
            throw new ServerConnectionException("failed to write the answer", e);
        }
        scratch.giveBack(data, size);
    }
}
