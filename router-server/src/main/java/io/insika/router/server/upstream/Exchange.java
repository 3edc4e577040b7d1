package io.insika.router.server.upstream;

import java.io.IOException;
import java.net.ProtocolException;
import java.util.Arrays;

import io.insika.router.api.Backend;

/**
 * One request to one backend and its answer, over one connection of a {@link BackendClient}:
 * write the head and body with {@link #request()}, read a validated head with
 * {@link #readHead()} and its body with {@link #body}, then {@link #release()} the connection
 * if both messages ended cleanly, or {@link #discard()} it. An exchange whose backend agreed to
 * a protocol switch becomes a tunnel: raw bytes both ways ({@link #becomeTunnel()}).
 *
 * <p>Used by one request's thread, except {@link #discard()}, which any thread may call to end
 * the exchange: a blocked read or write then fails.
 */
public final class Exchange {

    private final BackendClient client;
    private final BackendConnection connection;
    private final boolean fresh;
    private final long receivedBefore;
    private final RequestWriter request;
    private volatile boolean ended;

    Exchange(BackendClient client, BackendConnection connection, boolean fresh) {
        this.client = client;
        this.connection = connection;
        this.fresh = fresh;
        this.receivedBefore = connection.bytesReceived();
        this.request = new RequestWriter(connection);
    }

    /** The backend this exchange talks to. */
    public Backend backend() {
        return connection.backend();
    }

    /** Where the request goes: head, then body. */
    public RequestWriter request() {
        return request;
    }

    /**
     * Whether the connection was made for this exchange. A failure before any byte was sent
     * means, on a kept connection, that it died while idle (the request may go on another one);
     * on a fresh one, that the backend is unreachable.
     */
    public boolean fresh() {
        return fresh;
    }

    /**
     * Reads the answer's final head, validated whole (interim answers are read past).
     *
     * @throws java.io.EOFException if the backend closed first
     * @throws ProtocolException    if the head is not valid HTTP/1.x, or too large
     * @throws java.net.SocketTimeoutException if the backend stayed silent past the timeout
     * @throws BackendGoneException if a kept connection taken without a look failed before its
     *                              answer began, and the backend accepts no new connection
     */
    public ResponseHead readHead() throws IOException {
        try {
            return ResponseHead.read(connection);
        } catch (IOException failed) {
            if (!fresh && !connection.timedOut()) {
                client.keptConnectionFailed(connection.backend());
                // The close may have come before the request was written, unseen: a backend that
                // stopped (its listener closed with its connections) is then an unreachable owner,
                // as a look at the connection would have found, not one that broke mid-answer.
                if (connection.takenUnprobed() && connection.bytesReceived() == receivedBefore
                        && !client.accepts(connection.backend())) {
                    throw new BackendGoneException(connection.backend(), failed);
                }
            }
            throw failed;
        }
    }

    /**
     * The answer's body, framed as its head says.
     *
     * @param bodiless whether it has no body whatever its headers say (HEAD, 1xx, 204, 304)
     * @throws ProtocolException if the framing headers are invalid or contradict each other
     */
    public ResponseBody body(ResponseHead head, boolean bodiless) throws ProtocolException {
        return ResponseBody.of(connection, head, bodiless);
    }

    /** Whether the backend timeout, rather than the backend, ended the exchange. */
    public boolean timedOut() {
        return connection.timedOut();
    }

    /** Keeps the connection for the next request to the backend: both messages ended cleanly. */
    public void release() {
        if (!ended) {
            ended = true;
            client.release(connection);
        }
    }

    /** Closes the connection: the exchange failed, was cut short, or its framing forbids reuse. */
    public void discard() {
        ended = true;
        client.discard(connection);
    }

    /**
     * From now on the connection carries an upgraded protocol (a WebSocket): its silences are
     * the application's, so the backend timeout no longer applies to them.
     */
    public void becomeTunnel() {
        connection.becomeTunnel();
    }

    /**
     * What the backend has sent that was not read yet, waiting for some if none is.
     *
     * @return the bytes, or {@code null} at the end of the stream
     */
    public byte[] readSome() throws IOException {
        if (!connection.fill()) {
            return null;
        }
        byte[] bytes = Arrays.copyOfRange(connection.buffer(), connection.position(), connection.limit());
        connection.consume(bytes.length);
        return bytes;
    }

    /** Sends raw bytes (tunnel traffic), all of them, at once. */
    public void send(byte[] bytes) throws IOException {
        connection.write(bytes, 0, bytes.length);
        connection.flush();
    }

    /** Ends our direction only: the backend reads the end of the stream and may still answer. */
    public void shutdownOutput() throws IOException {
        connection.shutdownOutput();
    }
}
