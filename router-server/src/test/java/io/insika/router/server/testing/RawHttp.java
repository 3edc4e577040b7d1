package io.insika.router.server.testing;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;

/** Reading HTTP/1.1 off a raw socket in tests, byte by byte, so nothing past the head is consumed. */
public final class RawHttp {

    private RawHttp() {
    }

    /**
     * The head up to and including its blank line, bytes taken as ISO-8859-1.
     *
     * @return the head, or {@code null} if the stream ended before the head did
     */
    public static String readHead(InputStream in) throws IOException {
        ByteArrayOutputStream head = new ByteArrayOutputStream();
        int matched = 0;
        while (matched < 4) {
            int b = in.read();
            if (b < 0) {
                return null;
            }
            head.write(b);
            matched = (b == (matched % 2 == 0 ? '\r' : '\n')) ? matched + 1 : (b == '\r' ? 1 : 0);
        }
        return head.toString(StandardCharsets.ISO_8859_1);
    }
}
