package io.insika.router.server.secret;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;

/**
 * A secret kept in a file, such as a mounted Kubernetes Secret: its bytes, less one trailing
 * line end, which {@code echo} and editors add and nobody means as part of the secret. Read by
 * {@code token --hmac} and by the session seal alike, so one file serves both the same way.
 */
public final class SecretFile {

    private SecretFile() {
    }

    /**
     * @param file the file
     * @return its bytes without one trailing {@code \n} or {@code \r\n}
     * @throws IOException if it cannot be read
     */
    public static byte[] read(Path file) throws IOException {
        byte[] bytes = Files.readAllBytes(file);
        int end = bytes.length;
        if (end > 0 && bytes[end - 1] == '\n') {
            end--;
            if (end > 0 && bytes[end - 1] == '\r') {
                end--;
            }
        }
        return Arrays.copyOf(bytes, end);
    }
}
