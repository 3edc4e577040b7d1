package io.insika.router.distribution;

import java.io.DataInputStream;
import java.io.EOFException;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.zip.GZIPInputStream;

import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The tarball's bytes depend on what it holds, never on when or by whom it was built: every
 * entry carries project.build.outputTimestamp and root as its owner, and the gzip header no
 * time. Two builds of the same commit then make the same tarball, but for the AOT cache, which
 * is trained by running the router and whose bytes differ from one run to the next.
 */
class ReproducibleTarballTest {

    private static final Path TARBALL = Path.of(System.getProperty("insika.tarball"));
    private static final long OUTPUT_TIMESTAMP = Instant.parse(System.getProperty("insika.output.timestamp"))
            .getEpochSecond();

    @Test
    void everyEntryCarriesTheProjectsOutputTimestampAndRootAsItsOwner() throws IOException {
        List<String> wrong = new ArrayList<>();
        int entries = 0;
        try (DataInputStream tar = new DataInputStream(new GZIPInputStream(Files.newInputStream(TARBALL)))) {
            byte[] header = new byte[512];
            while (true) {
                try {
                    tar.readFully(header);
                } catch (EOFException end) {
                    break;
                }
                String name = text(header, 0, 100);
                if (name.isEmpty()) {
                    continue; // the two zero blocks that end the archive
                }
                entries++;
                long mtime = octal(header, 136, 12);
                long uid = octal(header, 108, 8);
                long gid = octal(header, 116, 8);
                if (mtime != OUTPUT_TIMESTAMP || uid != 0 || gid != 0) {
                    wrong.add(name + ": " + Instant.ofEpochSecond(mtime) + " " + uid + ":" + gid);
                }
                long size = octal(header, 124, 12);
                tar.skipNBytes((size + 511) / 512 * 512);
            }
        }

        assertTrue(entries > 50, entries + " entries");
        assertEquals(List.of(), wrong);
    }

    @Test
    void theGzipHeaderCarriesNoTime() throws IOException {
        try (InputStream in = Files.newInputStream(TARBALL)) {
            byte[] header = in.readNBytes(10);
            assertEquals(0x1f, header[0] & 0xff);
            assertEquals(0x8b, header[1] & 0xff);
            // MTIME, bytes 4 to 7: 0 means none (RFC 1952)
            assertEquals(0, header[4] | header[5] | header[6] | header[7]);
        }
    }

    private static String text(byte[] header, int offset, int length) {
        int end = offset;
        while (end < offset + length && header[end] != 0) {
            end++;
        }
        return new String(header, offset, end - offset, StandardCharsets.UTF_8);
    }

    private static long octal(byte[] header, int offset, int length) {
        String digits = text(header, offset, length).strip();
        return digits.isEmpty() ? 0 : Long.parseLong(digits, 8);
    }
}
