package io.insika.router.server.proxy;

import java.io.IOException;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.net.SocketTimeoutException;
import java.util.ArrayList;
import java.util.List;
import java.util.OptionalLong;
import java.util.Set;

import io.helidon.http.Header;
import io.helidon.http.HeaderNames;
import io.helidon.http.HeaderValues;
import io.helidon.http.Status;
import io.insika.router.server.upstream.ResponseBody;
import io.insika.router.server.upstream.ResponseHead;

/**
 * Copies a backend's answer to the client as it arrives: status, end-to-end headers, body. The
 * one place that decides the framing of the client's answer, from the body really relayed: a
 * backend's {@code Content-Length} and {@code Transfer-Encoding} are never copied, only what the
 * router knows to be true is said.
 * <ul>
 * <li>204, 205 and 304 go bodiless and say no length; HEAD says the length the backend gave,
 *     or none (RFC 9110, sections 8.6 and 9.3.2).</li>
 * <li>A body the backend framed with a length keeps it; any other goes chunked.</li>
 * <li>Nothing reaches the client before the body's first bytes (or its end): a backend that
 *     fails before then is answered 502 instead, with nothing of its answer relayed. After
 *     that, a failure closes the client connection, so a cut answer never looks complete. An
 *     event stream is the exception: its head is relayed at once, and its silences are
 *     measured by the stream idle timeout.</li>
 * <li>Whatever was read reaches the client before the next read from the backend would wait,
 *     whatever the framing: an event stream or a slow download is never held back.</li>
 * <li>Whatever the path, a value the backend set in a learned carrier reaches the
 *     client sealed with the answering backend's id ({@link SessionCarrier}); a value that
 *     cannot be sealed is a backend failure, answered 502 before anything is relayed.</li>
 * </ul>
 */
final class ResponseRelay {

    private static final System.Logger LOGGER = System.getLogger(ResponseRelay.class.getName());
    // Framing is the router's to decide (above), and the request id is the one the backend was
    // sent: these never pass as the backend wrote them.
    private static final Set<String> ROUTER_SET = Set.of("content-length", "transfer-encoding", "x-request-id");
    // Every status a head can carry (100 to 999), made once: Status.create looks the code up
    // each time.
    private static final Status[] STATUSES = new Status[1000];

    static {
        for (int code = 100; code < STATUSES.length; code++) {
            STATUSES[code] = Status.create(code);
        }
    }

    private ResponseRelay() {
    }

    /**
     * Relays an answer whose head was read. The request's slot is given back once the backend's
     * answer has been read to its end, before the last of it is written to the client (so before
     * the client can have it all).
     *
     * @param call the request, whose answer is not yet started; its learned carriers' values in
     *             the answer are sealed with the id of the backend it was admitted to
     * @return whether the backend connection ended cleanly and may carry another request
     * @throws IOException              if the backend failed before anything reached the client:
     *                                  the response is untouched and may still be answered
     * @throws BackendBrokeException    if the backend failed mid-answer
     * @throws ClientLeftException      if the client went away mid-answer
     */
    static boolean relay(ProxyCall call, ResponseHead head, ResponseBody body) throws IOException {
        ClientAnswer response = call.answer();
        Runnable answered = call.slotRelease();
        int code = head.status();
        if (code == 204 || code == 205 || code == 304) {
            // Helidon gives every bodiless answer a Content-Length: 0 unless one is set
            startAnswer(call, head, HopByHopHeaders.of(head.headers()));
            response.header(RelayedHeader.unwritten(HeaderNames.CONTENT_LENGTH, "0"));
            answered.run();
            sendBodiless(response);
            return head.keepAlive() && code != 205; // a 205's body, if it sent one, was not read
        }
        if (call.isHead()) {
            OptionalLong length = head.values("transfer-encoding").isEmpty() && !head.values("content-length").isEmpty()
                    ? OptionalLong.of(ResponseBody.declaredLength(head.values("content-length")))
                    : OptionalLong.empty();
            startAnswer(call, head, HopByHopHeaders.of(head.headers()));
            response.header(length.isPresent()
                    ? HeaderValues.create(HeaderNames.CONTENT_LENGTH, length.getAsLong())
                    : RelayedHeader.unwritten(HeaderNames.CONTENT_LENGTH, "0"));
            answered.run();
            sendBodiless(response);
            return head.keepAlive();
        }
        CopyBuffer buffer = new CopyBuffer(body.declaredLength().orElse(-1));
        if (isEventStream(head) && !body.isEmpty()) {
            return relayStream(call, head, body, buffer);
        }
        int first = body.isEmpty() ? -1 : body.read(buffer.bytes()); // an IOException here: nothing was relayed
        startAnswer(call, head, HopByHopHeaders.of(head.headers()));
        if (first < 0) {
            answered.run();
            sendBodiless(response); // Content-Length: 0
            return head.keepAlive() && body.complete();
        }
        body.declaredLength().ifPresent(length -> response.header(HeaderNames.CONTENT_LENGTH, Long.toString(length)));
        OutputStream out = call.parts().watchdog().watch(response.outputStream());
        flushBeforeWaiting(body, out);
        // the backend is done once its body ended: say so before the client can have it all
        if (body.ended()) {
            answered.run();
        }
        write(out, buffer.bytes(), first);
        buffer.read(first);
        copyRest(out, buffer, body, answered, false);
        return head.keepAlive() && body.complete();
    }

    /**
     * Sets the status and headers of a backend's {@code 101 Switching Protocols} on the answer,
     * with its {@code Connection} and {@code Upgrade}, which the client needs to agree too; the
     * caller sends them and hands the connection to the new protocol.
     *
     * @throws SessionCarrier.Unsealable if a carrier's value cannot be sealed: nothing was written
     */
    static void switchProtocols(ProxyCall call, ResponseHead head) throws SessionCarrier.Unsealable {
        startAnswer(call, head, HopByHopHeaders.ofUpgrade(head.headers()));
    }

    // An event stream: its head goes to the client at once, before any event (MCP's notification
    // stream sends its head, then nothing for minutes), and from then on the backend's silence is
    // measured by the stream idle timeout. A stream that stays silent past it ends as a chunked
    // answer ends, never with a second status line; one with a length is cut.
    private static boolean relayStream(ProxyCall call, ResponseHead head, ResponseBody body, CopyBuffer buffer)
            throws SessionCarrier.Unsealable {
        ClientAnswer response = call.answer();
        startAnswer(call, head, HopByHopHeaders.of(head.headers()));
        body.declaredLength().ifPresent(length -> response.header(HeaderNames.CONTENT_LENGTH, Long.toString(length)));
        OutputStream out = call.parts().watchdog().watch(response.outputStream());
        body.becomeStream();
        // the head goes with the first event when it is here already, else before the read waits
        flushBeforeWaiting(body, out);
        copyRest(out, buffer, body, call.slotRelease(), body.declaredLength().isEmpty());
        return head.keepAlive() && body.complete();
    }

    // media type text/event-stream, whatever its parameters and case (RFC 9110, section 8.3.1)
    // Asked of every answer: a scan of the names, no list made
    static boolean isEventStream(ResponseHead head) {
        String type = null;
        List<Header> headers = head.headers();
        for (int i = 0; i < headers.size(); i++) {
            Header header = headers.get(i);
            if (header.headerName().lowerCase().equals("content-type")) {
                if (type != null) {
                    return false; // two types: not one the router can tell
                }
                type = header.get();
            }
        }
        if (type == null) {
            return false;
        }
        int end = type.indexOf(';');
        return (end < 0 ? type : type.substring(0, end)).strip().equalsIgnoreCase("text/event-stream");
    }

    private static void flushBeforeWaiting(ResponseBody body, OutputStream out) {
        body.beforeWaiting(() -> {
            try {
                out.flush();
            } catch (IOException | RuntimeException e) {
                throw new ClientLeftException("client went away mid-response", e);
            }
        });
    }

    // Relays the body's rest and ends the client's answer. A stream that may end cleanly (chunked
    // towards the client) ends when the backend's silence outlasts the stream idle timeout.
    private static void copyRest(OutputStream out, CopyBuffer buffer, ResponseBody body, Runnable answered,
                                 boolean endsOnSilence) {
        while (true) {
            int n;
            try {
                n = body.read(buffer.bytes());
            } catch (SocketTimeoutException e) {
                if (!endsOnSilence) {
                    throw new BackendBrokeException("backend failed mid-response", e);
                }
                LOGGER.log(System.Logger.Level.DEBUG, "event stream silent past the stream idle timeout; ended");
                answered.run();
                break;
            } catch (IOException | UncheckedIOException e) {
                throw new BackendBrokeException("backend failed mid-response", e);
            }
            if (n < 0 || body.ended()) {
                answered.run();
            }
            if (n < 0) {
                break;
            }
            write(out, buffer.bytes(), n);
            buffer.read(n);
        }
        try {
            out.close();
        } catch (IOException | RuntimeException e) {
            throw new ClientLeftException("client went away mid-response", e);
        }
    }

    // The answer is committed from here: a failure is the client's, never the backend's.
    private static void sendBodiless(ClientAnswer response) {
        try {
            response.send();
        } catch (RuntimeException e) {
            throw new ClientLeftException("client went away before its answer was written", e);
        }
    }

    private static void write(OutputStream out, byte[] buffer, int n) {
        try {
            out.write(buffer, 0, n);
        } catch (IOException | RuntimeException e) {
            throw new ClientLeftException("client went away mid-response", e);
        }
    }

    // Status and end-to-end headers; each name once, with all its values in the order received,
    // so each Set-Cookie survives, and obs-text kept octet for octet. Most answers repeat no
    // name and hold no obs-text: those headers go to Helidon as they were parsed.
    private static void startAnswer(ProxyCall call, ResponseHead head, HopByHopHeaders hopByHop)
            throws SessionCarrier.Unsealable {
        ClientAnswer response = call.answer();
        SessionCarrier carrier = call.carrier();
        response.status(STATUSES[head.status()]);
        List<Header> headers = head.headers();
        boolean repeats = repeatsAName(headers);
        for (int i = 0; i < headers.size(); i++) {
            Header header = headers.get(i);
            String name = header.headerName().lowerCase();
            if (ROUTER_SET.contains(name) || hopByHop.excludes(header)) {
                continue;
            }
            if (repeats && indexOf(headers, name, 0) < i) {
                continue; // written with its first occurrence
            }
            if (carrier.seals(name)) {
                response.header(sealed(headers, header, carrier, call.backend().id()));
                continue;
            }
            if (!repeats || indexOf(headers, name, i + 1) < 0) {
                response.header(RelayedHeader.needed(header.get())
                        ? RelayedHeader.exact(header.headerName(), List.of(header.get()))
                        : header);
                continue;
            }
            List<String> values = new ArrayList<>();
            for (int j = i; j >= 0; j = indexOf(headers, name, j + 1)) {
                values.add(headers.get(j).get());
            }
            response.header(values.stream().anyMatch(RelayedHeader::needed)
                    ? RelayedHeader.exact(header.headerName(), values)
                    : HeaderValues.create(header.headerName(), values));
        }
        response.header(RequestId.HEADER, call.requestId());
    }

    // Every value of the carrier's field, those that set it sealed; the rest byte for byte.
    private static Header sealed(List<Header> headers, Header first, SessionCarrier carrier, String backendId)
            throws SessionCarrier.Unsealable {
        List<String> sealed = carrier.sealAnswer(headers, first.headerName().lowerCase(), backendId);
        return sealed.stream().anyMatch(RelayedHeader::needed) ? RelayedHeader.exact(first.headerName(), sealed)
                : HeaderValues.create(first.headerName(), sealed);
    }

    // Whether a name occurs twice. Most answers repeat none, and then no field needs a search
    // for the others of its name (n squared string comparisons per answer); a name's hash
    // picks one of 64 bits, and only a bit already taken asks for the exact search.
    private static boolean repeatsAName(List<Header> headers) {
        long seen = 0;
        for (int i = 0; i < headers.size(); i++) {
            String name = headers.get(i).headerName().lowerCase();
            long bit = 1L << (name.hashCode() & 63);
            if ((seen & bit) != 0 && indexOf(headers, name, 0) < i) {
                return true;
            }
            seen |= bit;
        }
        return false;
    }

    // The index of the first header of this (lower-case) name at or after from, or -1.
    private static int indexOf(List<Header> headers, String name, int from) {
        for (int i = from; i < headers.size(); i++) {
            if (headers.get(i).headerName().lowerCase().equals(name)) {
                return i;
            }
        }
        return -1;
    }
}
