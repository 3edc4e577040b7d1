package io.insika.router.strategies.ketama;

import static org.hamcrest.MatcherAssert.assertThat;
import static org.hamcrest.Matchers.is;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.util.HexFormat;
import java.util.Random;

import org.junit.jupiter.api.Test;

class Md5Test {

    @Test
    void matchesRfc1321TestSuite() {
        assertThat(hex(""), is("d41d8cd98f00b204e9800998ecf8427e"));
        assertThat(hex("abc"), is("900150983cd24fb0d6963f7d28e17f72"));
        assertThat(hex("message digest"), is("f96b697d7cb7938d525a2f31aaf161d0"));
        assertThat(hex("12345678901234567890123456789012345678901234567890123456789012345678901234567890"),
                is("57edf4a22be3c955ac49da2e2107b67a"));
    }

    @Test
    void matchesTheJdkDigestForEveryLengthAcrossThreeBlocks() throws Exception {
        Random random = new Random(7);
        for (int length = 0; length <= 200; length++) {
            byte[] message = new byte[length];
            random.nextBytes(message);

            byte[] expected = MessageDigest.getInstance("MD5").digest(message);

            assertThat("length " + length, bytes(Md5.digestWords(message)), is(expected));
            assertThat("length " + length, Md5.firstWord(message),
                    is(ByteBuffer.wrap(expected).order(ByteOrder.LITTLE_ENDIAN).getInt(0)));
        }
    }

    private static String hex(String text) {
        return HexFormat.of().formatHex(bytes(Md5.digestWords(text.getBytes(StandardCharsets.UTF_8))));
    }

    private static byte[] bytes(int[] words) {
        ByteBuffer buffer = ByteBuffer.allocate(16).order(ByteOrder.LITTLE_ENDIAN);
        for (int word : words) {
            buffer.putInt(word);
        }
        return buffer.array();
    }
}
