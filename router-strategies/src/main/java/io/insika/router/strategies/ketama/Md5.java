package io.insika.router.strategies.ketama;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteOrder;

/**
 * MD5 (RFC 1321) of a byte array, answering with the four state words instead of 16 bytes.
 *
 * <p>Ketama reads a digest as four little-endian 32-bit numbers, and those are exactly MD5's
 * final state words A, B, C, D, so no byte array is built. Written here rather than taken from
 * {@link java.security.MessageDigest} because a pick hashes every key: a fresh or cloned digest
 * costs several objects per call, and keys that fit one block take the unrolled
 * {@link OneBlockMd5} (see the benchmarks module's {@code KetamaKeyHashBenchmark}). Tests check
 * both against {@code MessageDigest} for every length across three blocks.
 */
final class Md5 {

    private static final VarHandle LE_INT = MethodHandles.byteArrayViewVarHandle(int[].class, ByteOrder.LITTLE_ENDIAN);

    private static final int[] K = new int[64];
    private static final int[] SHIFT = {7, 12, 17, 22, 5, 9, 14, 20, 4, 11, 16, 23, 6, 10, 15, 21};

    static {
        // RFC 1321, 3.4: K[i] = floor(|sin(i + 1)| * 2^32); StrictMath so the table never varies.
        for (int i = 0; i < 64; i++) {
            K[i] = (int) (long) Math.floor(Math.abs(StrictMath.sin(i + 1)) * 4294967296.0);
        }
    }

    private Md5() {
    }

    /** Word A of the digest: its bytes 0..3 read little-endian. */
    static int firstWord(byte[] message) {
        return message.length <= OneBlockMd5.MAX_LENGTH ? OneBlockMd5.firstWord(message) : digestWords(message)[0];
    }

    /** The digest as four words; word i is the digest's bytes 4i..4i+3 read little-endian. */
    static int[] digestWords(byte[] message) {
        int[] state = {0x67452301, 0xefcdab89, 0x98badcfe, 0x10325476};
        int[] block = new int[16];
        int length = message.length;
        int whole = length & ~63;
        for (int offset = 0; offset < whole; offset += 64) {
            for (int i = 0; i < 16; i++) {
                block[i] = (int) LE_INT.get(message, offset + 4 * i);
            }
            compress(state, block);
        }
        // The tail, the 0x80 marker and the bit length fill one more block, or two when fewer
        // than 9 bytes are left after the tail.
        int tailBlocks = (length - whole) + 9 > 64 ? 2 : 1;
        for (int b = 0; b < tailBlocks; b++) {
            int base = whole + 64 * b;
            for (int i = 0; i < 16; i++) {
                block[i] = paddedWord(message, base + 4 * i);
            }
            if (b == tailBlocks - 1) {
                long bits = (long) length << 3;
                block[14] = (int) bits;
                block[15] = (int) (bits >>> 32);
            }
            compress(state, block);
        }
        return state;
    }

    private static int paddedWord(byte[] message, int position) {
        int word = 0;
        for (int j = 3; j >= 0; j--) {
            int p = position + j;
            int value = p < message.length ? message[p] & 0xff : p == message.length ? 0x80 : 0;
            word = (word << 8) | value;
        }
        return word;
    }

    private static void compress(int[] state, int[] x) {
        int a = state[0];
        int b = state[1];
        int c = state[2];
        int d = state[3];
        for (int i = 0; i < 16; i++) {
            int f = (b & c) | (~b & d);
            int t = d;
            d = c;
            c = b;
            b += Integer.rotateLeft(a + f + K[i] + x[i], SHIFT[i & 3]);
            a = t;
        }
        for (int i = 16; i < 32; i++) {
            int f = (b & d) | (c & ~d);
            int t = d;
            d = c;
            c = b;
            b += Integer.rotateLeft(a + f + K[i] + x[(5 * i + 1) & 15], SHIFT[4 + (i & 3)]);
            a = t;
        }
        for (int i = 32; i < 48; i++) {
            int f = b ^ c ^ d;
            int t = d;
            d = c;
            c = b;
            b += Integer.rotateLeft(a + f + K[i] + x[(3 * i + 5) & 15], SHIFT[8 + (i & 3)]);
            a = t;
        }
        for (int i = 48; i < 64; i++) {
            int f = c ^ (b | ~d);
            int t = d;
            d = c;
            c = b;
            b += Integer.rotateLeft(a + f + K[i] + x[(7 * i) & 15], SHIFT[12 + (i & 3)]);
            a = t;
        }
        state[0] += a;
        state[1] += b;
        state[2] += c;
        state[3] += d;
    }
}
