package io.insika.router.server.testing;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.PushbackInputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * Two independent readers of HTTP/1.1 messages for the conformance corpus: a strict one, that
 * holds a message to RFC 9112 to the letter, and a lenient one, that reads as forgiving servers
 * do (bare LF, whitespace before the colon, obs-fold, {@code Transfer-Encoding} winning over
 * {@code Content-Length}, signs in chunk sizes, chunk data ends skipped unread). A message the
 * router forwards is safe when both read it as the same messages: no reader behind it can find
 * a second request where the router saw one.
 */
public final class Http1Messages {

    /** One message: its start line, its fields in order (names lower-cased), its body. */
    public record Message(String startLine, List<String> fields, byte[] body) {
        public String describe() {
            return startLine + "\n" + String.join("\n", fields) + "\n\n" + new String(body, StandardCharsets.ISO_8859_1);
        }

        public int status() {
            return Integer.parseInt(startLine.substring(9, 12));
        }

        public String bodyText() {
            return new String(body, StandardCharsets.ISO_8859_1);
        }

        public List<String> values(String name) {
            return fields.stream().filter(f -> f.startsWith(name + ": ")).map(f -> f.substring(name.length() + 2)).toList();
        }
    }

    /**
     * What a reader made of a stream.
     *
     * @param messages the complete messages, in order
     * @param ending   {@code "end"} when the stream ended between messages, else why it stopped
     *                 (a cut message, or malformed input)
     */
    public record Reading(List<Message> messages, String ending) {
        public String describe() {
            return String.join("\n----\n", messages.stream().map(Message::describe).toList()) + "\n[" + ending + "]";
        }

        public boolean cleanEnd() {
            return ending.equals("end");
        }
    }

    private static final class Malformed extends IOException {
        Malformed(String message) {
            super(message);
        }
    }

    private final PushbackInputStream in;
    private final boolean strict;
    private final boolean responses;
    private final String requestMethod;

    private Http1Messages(InputStream in, boolean strict, boolean responses, String requestMethod) {
        this.in = new PushbackInputStream(in, 2);
        this.strict = strict;
        this.responses = responses;
        this.requestMethod = requestMethod;
    }

    /** Reads requests until the bytes end or stop making sense. */
    public static Reading requests(byte[] bytes, boolean strict) {
        return readAll(new Http1Messages(new ByteArrayInputStream(bytes), strict, false, null));
    }

    /** Reads the answers to requests of this method. */
    public static Reading responses(byte[] bytes, boolean strict, String method) {
        return readAll(new Http1Messages(new ByteArrayInputStream(bytes), strict, true, method));
    }

    /** A strict reader of requests off a live stream, for a backend that answers them. */
    public static Message nextRequest(InputStream in) throws IOException {
        return new Http1Messages(in, true, false, null).next();
    }

    /**
     * A strict reader of one answer off a live stream, for a client that sends its requests one
     * at a time on one connection; it reads nothing past the answer's end.
     *
     * @return the answer, or {@code null} if the stream ended before one began
     */
    public static Message nextResponse(InputStream in, String method) throws IOException {
        return new Http1Messages(in, true, true, method).next();
    }

    private static Reading readAll(Http1Messages reader) {
        List<Message> messages = new ArrayList<>();
        try {
            for (Message m = reader.next(); m != null; m = reader.next()) {
                messages.add(m);
            }
            return new Reading(messages, "end");
        } catch (Malformed e) {
            return new Reading(messages, "malformed: " + e.getMessage());
        } catch (IOException e) {
            return new Reading(messages, "cut: " + e.getMessage());
        }
    }

    private Message next() throws IOException {
        int first = in.read();
        if (first < 0) {
            return null;
        }
        in.unread(first);
        String start = line();
        if (!strict) {
            while (start.isEmpty()) { // lenient readers skip blank lines before a message
                start = line();
            }
        }
        checkStartLine(start);
        List<String> fields = fields();
        byte[] body = body(start, fields);
        return new Message(start, fields, body);
    }

    private void checkStartLine(String start) throws IOException {
        if (responses) {
            if (!start.matches("HTTP/1\\.[01] [1-9][0-9][0-9]( .*)?")) {
                throw new Malformed("status line [" + start + "]");
            }
            return;
        }
        if (strict ? !start.matches("[!#$%&'*+.^_`|~0-9A-Za-z-]+ [!-~]+ HTTP/1\\.1")
                : start.trim().split("\\s+").length != 3) {
            throw new Malformed("request line [" + start + "]");
        }
    }

    private List<String> fields() throws IOException {
        List<String> fields = new ArrayList<>();
        for (String line = line(); !line.isEmpty(); line = line()) {
            if (line.charAt(0) == ' ' || line.charAt(0) == '\t') {
                if (strict || fields.isEmpty()) {
                    throw new Malformed("obs-fold");
                }
                fields.set(fields.size() - 1, fields.getLast() + " " + line.strip());
                continue;
            }
            int colon = line.indexOf(':');
            if (colon <= 0) {
                throw new Malformed("field line [" + line + "]");
            }
            String name = line.substring(0, colon);
            if (strict && !name.matches("[!#$%&'*+.^_`|~0-9A-Za-z-]+")) {
                throw new Malformed("field name [" + name + "]");
            }
            String value = line.substring(colon + 1).strip();
            if (strict && !value.chars().allMatch(c -> c == '\t' || (c >= 0x20 && c != 0x7f))) {
                throw new Malformed("field value of " + name);
            }
            fields.add(name.strip().toLowerCase(Locale.ROOT) + ": " + value);
        }
        return fields;
    }

    private byte[] body(String start, List<String> fields) throws IOException {
        List<String> codings = values(fields, "transfer-encoding");
        List<String> lengths = values(fields, "content-length");
        if (responses) {
            int status = Integer.parseInt(start.substring(9, 12));
            if ("HEAD".equals(requestMethod) || status < 200 || status == 204 || status == 304) {
                return new byte[0];
            }
        }
        if (!codings.isEmpty()) {
            String all = String.join(",", codings).toLowerCase(Locale.ROOT).replace(" ", "");
            if (strict && (!all.equals("chunked") || !lengths.isEmpty())) {
                throw new Malformed("framing TE " + codings + " CL " + lengths);
            }
            if (!strict && all.contains("chunked")) {
                return chunked();
            }
            if (!strict) {
                return responses ? in.readAllBytes() : new byte[0];
            }
            return chunked();
        }
        if (!lengths.isEmpty()) {
            long length = strict ? strictLength(lengths) : Long.parseLong(lengths.getFirst().split(",")[0].strip());
            byte[] body = in.readNBytes((int) length);
            if (body.length < length) {
                throw new IOException("body cut at " + body.length + " of " + length);
            }
            return body;
        }
        return responses ? in.readAllBytes() : new byte[0];
    }

    private static long strictLength(List<String> lengths) throws Malformed {
        long length = -1;
        for (String field : lengths) {
            for (String value : field.split(",", -1)) {
                String v = value.strip();
                if (!v.matches("[0-9]{1,18}") || (length >= 0 && Long.parseLong(v) != length)) {
                    throw new Malformed("Content-Length " + lengths);
                }
                length = Long.parseLong(v);
            }
        }
        return length;
    }

    private byte[] chunked() throws IOException {
        ByteArrayOutputStream body = new ByteArrayOutputStream();
        while (true) {
            String line = line();
            String size = line.split(";", 2)[0];
            long length;
            if (strict) {
                if (!size.matches("[0-9A-Fa-f]{1,15}")) {
                    throw new Malformed("chunk size [" + line + "]");
                }
                length = Long.parseLong(size, 16);
            } else {
                try {
                    length = Long.parseLong(size.strip(), 16);
                } catch (NumberFormatException e) {
                    throw new Malformed("chunk size [" + line + "]");
                }
                if (length < 0) {
                    throw new Malformed("negative chunk size");
                }
            }
            if (length == 0) {
                fields(); // trailers
                return body.toByteArray();
            }
            byte[] data = in.readNBytes((int) length);
            if (data.length < length) {
                throw new IOException("chunk cut");
            }
            body.write(data);
            if (strict) {
                if (!line().isEmpty()) {
                    throw new Malformed("chunk data longer than its size");
                }
            } else {
                in.readNBytes(2); // as a reader that skips the line end unread
            }
        }
    }

    private static List<String> values(List<String> fields, String name) {
        return fields.stream().filter(f -> f.startsWith(name + ": ")).map(f -> f.substring(name.length() + 2)).toList();
    }

    private String line() throws IOException {
        ByteArrayOutputStream line = new ByteArrayOutputStream();
        while (true) {
            int b = in.read();
            if (b < 0) {
                throw new IOException("stream ended mid-line");
            }
            if (b == '\n') {
                byte[] bytes = line.toByteArray();
                boolean cr = bytes.length > 0 && bytes[bytes.length - 1] == '\r';
                if (strict && !cr) {
                    throw new Malformed("bare LF");
                }
                String text = new String(bytes, 0, cr ? bytes.length - 1 : bytes.length, StandardCharsets.ISO_8859_1);
                if (strict && text.indexOf('\r') >= 0) {
                    throw new Malformed("bare CR");
                }
                return text;
            }
            line.write(b);
            if (line.size() > 65536) {
                throw new Malformed("line too long");
            }
        }
    }
}
