package io.insika.router.server.interop;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;

import static org.junit.jupiter.api.Assertions.fail;

/**
 * A chunked body read off a live connection chunk by chunk, so a test sees what had arrived by
 * when, and that it ended with the terminator. Strict: a size that is not hex or data not
 * followed by CRLF fails the test.
 */
final class ChunkedStream {

    private final InputStream in;
    private final StringBuilder body = new StringBuilder();
    private boolean ended;

    /** @param in positioned right after the answer's head */
    ChunkedStream(InputStream in) {
        this.in = in;
    }

    /** Reads chunks until the body so far contains the text; fails if the body ends first. */
    String awaitText(String text) throws IOException {
        while (!body.toString().contains(text)) {
            if (ended || !readChunk()) {
                fail("the body ended without [" + text + "]: [" + body + "]");
            }
        }
        return body.toString();
    }

    /** Reads to the terminating chunk and the blank line after its trailer section; the whole body. */
    String toEnd() throws IOException {
        while (!ended) {
            readChunk();
        }
        return body.toString();
    }

    // false once the last chunk (size 0) and its trailer section were read
    private boolean readChunk() throws IOException {
        String size = line();
        if (!size.matches("[0-9a-fA-F]{1,8}(;.*)?")) {
            fail("not a chunk size: [" + size + "] after [" + body + "]");
        }
        int length = Integer.parseInt(size.split(";", 2)[0], 16);
        if (length == 0) {
            while (!line().isEmpty()) {
                // a trailer field
            }
            ended = true;
            return false;
        }
        byte[] data = in.readNBytes(length);
        if (data.length < length || !line().isEmpty()) {
            fail("a chunk of " + length + " bytes was cut or overran: [" + new String(data, StandardCharsets.UTF_8) + "]");
        }
        body.append(new String(data, StandardCharsets.UTF_8));
        return true;
    }

    private String line() throws IOException {
        ByteArrayOutputStream line = new ByteArrayOutputStream();
        for (int b = in.read(); b != '\n'; b = in.read()) {
            if (b < 0) {
                fail("the connection ended inside the chunked body, after [" + body + "]");
            }
            line.write(b);
        }
        String text = line.toString(StandardCharsets.ISO_8859_1);
        if (!text.endsWith("\r")) {
            fail("a line of the chunked body ended in a bare LF: [" + text + "]");
        }
        return text.substring(0, text.length() - 1);
    }
}
