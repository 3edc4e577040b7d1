import java.nio.charset.StandardCharsets;

/**
 * The job LeanFloor and EventFloor both do to a message, and nothing more: where its head ends,
 * its Content-Length and the hash of its "user" field. Both are measuring sticks, not the router: no validation.
 * (They are single-file programs that the java launcher compiles together with this file,
 * which needs Java 22 or newer.)
 */
final class FloorJob {

    private static final byte[] USER = "\"user\":\"".getBytes(StandardCharsets.US_ASCII);

    private FloorJob() {
    }

    /** The index after the empty line ending the head that starts at from, or -1 before b[to]. */
    static int headEnd(byte[] b, int from, int to) {
        for (int i = from; i + 3 < to; i++) {
            if (b[i] == '\r' && b[i + 1] == '\n' && b[i + 2] == '\r' && b[i + 3] == '\n') {
                return i + 4;
            }
        }
        return -1;
    }

    /** The Content-Length of the head in b[from, to), 0 when it has none. */
    static int contentLength(byte[] b, int from, int to) {
        for (int i = Math.max(from, 1); i + 15 < to; i++) {
            if ((b[i] | 0x20) == 'c' && b[i - 1] == '\n' && regionIs(b, i, "content-length:")) {
                int v = 0;
                for (int j = i + 15; j < to && b[j] != '\r'; j++) {
                    if (b[j] >= '0' && b[j] <= '9') {
                        v = v * 10 + b[j] - '0';
                    }
                }
                return v;
            }
        }
        return 0;
    }

    private static boolean regionIs(byte[] b, int at, String lower) {
        for (int k = 0; k < lower.length(); k++) {
            if ((b[at + k] | 0x20) != lower.charAt(k) && b[at + k] != lower.charAt(k)) {
                return false;
            }
        }
        return true;
    }

    /** A hash of the "user" value in b[from, to) (the router hashes with MD5; this is FNV-1a, cheaper still). */
    static int key(byte[] b, int from, int to) {
        outer:
        for (int i = from; i + USER.length < to; i++) {
            for (int k = 0; k < USER.length; k++) {
                if (b[i + k] != USER[k]) {
                    continue outer;
                }
            }
            int h = 0x811c9dc5;
            for (int j = i + USER.length; j < to && b[j] != '"'; j++) {
                h = (h ^ b[j]) * 0x01000193;
            }
            return h;
        }
        return 0;
    }
}
