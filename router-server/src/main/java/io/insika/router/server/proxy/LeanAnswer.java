package io.insika.router.server.proxy;

import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

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
 * given, or chunked. The head goes out with the body's first bytes, in one write.
 */
final class LeanAnswer implements ClientAnswer {

    private static final byte[] OK = "HTTP/1.1 200 OK\r\n".getBytes(StandardCharsets.US_ASCII);
    private static final byte[] DATE = "Date: ".getBytes(StandardCharsets.US_ASCII);
    private static final byte[] KEEP_ALIVE = "Connection: keep-alive\r\n".getBytes(StandardCharsets.US_ASCII);
    private static final byte[] CLOSE = "Connection: close\r\n".getBytes(StandardCharsets.US_ASCII);
    private static final byte[] CHUNKED = "Transfer-Encoding: chunked\r\n".getBytes(StandardCharsets.US_ASCII);
    private static final byte[] LAST_CHUNK = "0\r\n\r\n".getBytes(StandardCharsets.US_ASCII);

    private final DataWriter writer;
    private final List<Header> headers = new ArrayList<>(16);
    private Status status = Status.OK_200;
    private boolean close;
    private boolean sent;
    private long written;

    LeanAnswer(DataWriter writer, boolean close) {
        this.writer = writer;
        this.close = close;
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
        if (header.headerName().equals(HeaderNames.CONNECTION)) {
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

    @Override
    public OutputStream outputStream() {
        long declared = declaredLength();
        boolean chunked = declared < 0;
        return new OutputStream() {
            private boolean headWritten;

            @Override
            public void write(int b) {
                write(new byte[] {(byte) b}, 0, 1);
            }

            @Override
            public void write(byte[] b, int off, int len) {
                if (len == 0) {
                    return;
                }
                if (!chunked && written + len > declared) {
                    throw new ServerConnectionException("answer longer than its Content-Length", null);
                }
                BufferData out;
                if (headWritten) {
                    out = BufferData.growing(len + 16);
                } else {
                    out = head(null, false);
                    if (chunked) {
                        out.write(CHUNKED);
                    }
                    out.write('\r');
                    out.write('\n');
                    headWritten = true;
                }
                if (chunked) {
                    out.write(Integer.toHexString(len).getBytes(StandardCharsets.US_ASCII));
                    out.write('\r');
                    out.write('\n');
                    out.write(b, off, len);
                    out.write('\r');
                    out.write('\n');
                } else {
                    out.write(b, off, len);
                }
                LeanAnswer.this.write(out);
                written += len;
            }

            @Override
            public void close() {
                if (!headWritten) {
                    send();
                    return;
                }
                if (chunked) {
                    LeanAnswer.this.write(BufferData.create(LAST_CHUNK));
                } else if (written != declared) {
                    // the client would wait for the rest, or read it as the next answer
                    throw new ServerConnectionException("answer shorter than its Content-Length", null);
                }
                sent = true;
            }
        };
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
        BufferData head = BufferData.growing(512);
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
                header.writeHttp1Header(head);
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

    // a failed write is the client's: the connection ends, as Helidon's response says it
    private void write(BufferData data) {
        try {
            writer.writeNow(data);
        } catch (RuntimeException e) {
            throw new ServerConnectionException("failed to write the answer", e);
        }
    }
}
