package io.insika.router.strategies.ketama;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteOrder;

/**
 * MD5's first state word for a message of at most {@value #MAX_LENGTH} bytes, which pads into a
 * single block: nearly every session key. The 64 steps are written out so that every shift and
 * constant is an immediate and the block lives in locals, not arrays; each step adds the
 * message word and constant to the old word first, so only the round function waits on the
 * previous step; the last three steps are left out because they only change words B, C and D. This is libketama's key hash, on every
 * pick; {@link Md5} handles longer messages.
 */
final class OneBlockMd5 {

    /** 64 bytes less the 0x80 marker and the 8-byte length. */
    static final int MAX_LENGTH = 55;

    private static final VarHandle LE_INT = MethodHandles.byteArrayViewVarHandle(int[].class, ByteOrder.LITTLE_ENDIAN);

    private OneBlockMd5() {
    }

    static int firstWord(byte[] m) {
        int n = m.length;
        int x0 = word(m, n, 0);
        int x1 = word(m, n, 1);
        int x2 = word(m, n, 2);
        int x3 = word(m, n, 3);
        int x4 = word(m, n, 4);
        int x5 = word(m, n, 5);
        int x6 = word(m, n, 6);
        int x7 = word(m, n, 7);
        int x8 = word(m, n, 8);
        int x9 = word(m, n, 9);
        int x10 = word(m, n, 10);
        int x11 = word(m, n, 11);
        int x12 = word(m, n, 12);
        int x13 = word(m, n, 13);
        // Words 14 and 15 hold the length in bits; 15 is zero for one block, so it is left out.
        int x14 = n << 3;
        int a = 0x67452301;
        int b = 0xefcdab89;
        int c = 0x98badcfe;
        int d = 0x10325476;
        a = b + Integer.rotateLeft(((b & c) | (~b & d)) + (a + x0 + 0xd76aa478), 7);
        d = a + Integer.rotateLeft(((a & b) | (~a & c)) + (d + x1 + 0xe8c7b756), 12);
        c = d + Integer.rotateLeft(((d & a) | (~d & b)) + (c + x2 + 0x242070db), 17);
        b = c + Integer.rotateLeft(((c & d) | (~c & a)) + (b + x3 + 0xc1bdceee), 22);
        a = b + Integer.rotateLeft(((b & c) | (~b & d)) + (a + x4 + 0xf57c0faf), 7);
        d = a + Integer.rotateLeft(((a & b) | (~a & c)) + (d + x5 + 0x4787c62a), 12);
        c = d + Integer.rotateLeft(((d & a) | (~d & b)) + (c + x6 + 0xa8304613), 17);
        b = c + Integer.rotateLeft(((c & d) | (~c & a)) + (b + x7 + 0xfd469501), 22);
        a = b + Integer.rotateLeft(((b & c) | (~b & d)) + (a + x8 + 0x698098d8), 7);
        d = a + Integer.rotateLeft(((a & b) | (~a & c)) + (d + x9 + 0x8b44f7af), 12);
        c = d + Integer.rotateLeft(((d & a) | (~d & b)) + (c + x10 + 0xffff5bb1), 17);
        b = c + Integer.rotateLeft(((c & d) | (~c & a)) + (b + x11 + 0x895cd7be), 22);
        a = b + Integer.rotateLeft(((b & c) | (~b & d)) + (a + x12 + 0x6b901122), 7);
        d = a + Integer.rotateLeft(((a & b) | (~a & c)) + (d + x13 + 0xfd987193), 12);
        c = d + Integer.rotateLeft(((d & a) | (~d & b)) + (c + x14 + 0xa679438e), 17);
        b = c + Integer.rotateLeft(((c & d) | (~c & a)) + (b + 0x49b40821), 22);
        a = b + Integer.rotateLeft(((b & d) | (c & ~d)) + (a + x1 + 0xf61e2562), 5);
        d = a + Integer.rotateLeft(((a & c) | (b & ~c)) + (d + x6 + 0xc040b340), 9);
        c = d + Integer.rotateLeft(((d & b) | (a & ~b)) + (c + x11 + 0x265e5a51), 14);
        b = c + Integer.rotateLeft(((c & a) | (d & ~a)) + (b + x0 + 0xe9b6c7aa), 20);
        a = b + Integer.rotateLeft(((b & d) | (c & ~d)) + (a + x5 + 0xd62f105d), 5);
        d = a + Integer.rotateLeft(((a & c) | (b & ~c)) + (d + x10 + 0x02441453), 9);
        c = d + Integer.rotateLeft(((d & b) | (a & ~b)) + (c + 0xd8a1e681), 14);
        b = c + Integer.rotateLeft(((c & a) | (d & ~a)) + (b + x4 + 0xe7d3fbc8), 20);
        a = b + Integer.rotateLeft(((b & d) | (c & ~d)) + (a + x9 + 0x21e1cde6), 5);
        d = a + Integer.rotateLeft(((a & c) | (b & ~c)) + (d + x14 + 0xc33707d6), 9);
        c = d + Integer.rotateLeft(((d & b) | (a & ~b)) + (c + x3 + 0xf4d50d87), 14);
        b = c + Integer.rotateLeft(((c & a) | (d & ~a)) + (b + x8 + 0x455a14ed), 20);
        a = b + Integer.rotateLeft(((b & d) | (c & ~d)) + (a + x13 + 0xa9e3e905), 5);
        d = a + Integer.rotateLeft(((a & c) | (b & ~c)) + (d + x2 + 0xfcefa3f8), 9);
        c = d + Integer.rotateLeft(((d & b) | (a & ~b)) + (c + x7 + 0x676f02d9), 14);
        b = c + Integer.rotateLeft(((c & a) | (d & ~a)) + (b + x12 + 0x8d2a4c8a), 20);
        a = b + Integer.rotateLeft((b ^ (c ^ d)) + (a + x5 + 0xfffa3942), 4);
        d = a + Integer.rotateLeft((a ^ (b ^ c)) + (d + x8 + 0x8771f681), 11);
        c = d + Integer.rotateLeft((d ^ (a ^ b)) + (c + x11 + 0x6d9d6122), 16);
        b = c + Integer.rotateLeft((c ^ (d ^ a)) + (b + x14 + 0xfde5380c), 23);
        a = b + Integer.rotateLeft((b ^ (c ^ d)) + (a + x1 + 0xa4beea44), 4);
        d = a + Integer.rotateLeft((a ^ (b ^ c)) + (d + x4 + 0x4bdecfa9), 11);
        c = d + Integer.rotateLeft((d ^ (a ^ b)) + (c + x7 + 0xf6bb4b60), 16);
        b = c + Integer.rotateLeft((c ^ (d ^ a)) + (b + x10 + 0xbebfbc70), 23);
        a = b + Integer.rotateLeft((b ^ (c ^ d)) + (a + x13 + 0x289b7ec6), 4);
        d = a + Integer.rotateLeft((a ^ (b ^ c)) + (d + x0 + 0xeaa127fa), 11);
        c = d + Integer.rotateLeft((d ^ (a ^ b)) + (c + x3 + 0xd4ef3085), 16);
        b = c + Integer.rotateLeft((c ^ (d ^ a)) + (b + x6 + 0x04881d05), 23);
        a = b + Integer.rotateLeft((b ^ (c ^ d)) + (a + x9 + 0xd9d4d039), 4);
        d = a + Integer.rotateLeft((a ^ (b ^ c)) + (d + x12 + 0xe6db99e5), 11);
        c = d + Integer.rotateLeft((d ^ (a ^ b)) + (c + 0x1fa27cf8), 16);
        b = c + Integer.rotateLeft((c ^ (d ^ a)) + (b + x2 + 0xc4ac5665), 23);
        a = b + Integer.rotateLeft((c ^ (b | ~d)) + (a + x0 + 0xf4292244), 6);
        d = a + Integer.rotateLeft((b ^ (a | ~c)) + (d + x7 + 0x432aff97), 10);
        c = d + Integer.rotateLeft((a ^ (d | ~b)) + (c + x14 + 0xab9423a7), 15);
        b = c + Integer.rotateLeft((d ^ (c | ~a)) + (b + x5 + 0xfc93a039), 21);
        a = b + Integer.rotateLeft((c ^ (b | ~d)) + (a + x12 + 0x655b59c3), 6);
        d = a + Integer.rotateLeft((b ^ (a | ~c)) + (d + x3 + 0x8f0ccc92), 10);
        c = d + Integer.rotateLeft((a ^ (d | ~b)) + (c + x10 + 0xffeff47d), 15);
        b = c + Integer.rotateLeft((d ^ (c | ~a)) + (b + x1 + 0x85845dd1), 21);
        a = b + Integer.rotateLeft((c ^ (b | ~d)) + (a + x8 + 0x6fa87e4f), 6);
        d = a + Integer.rotateLeft((b ^ (a | ~c)) + (d + 0xfe2ce6e0), 10);
        c = d + Integer.rotateLeft((a ^ (d | ~b)) + (c + x6 + 0xa3014314), 15);
        b = c + Integer.rotateLeft((d ^ (c | ~a)) + (b + x13 + 0x4e0811a1), 21);
        a = b + Integer.rotateLeft((c ^ (b | ~d)) + (a + x4 + 0xf7537e82), 6);
        return a + 0x67452301;
    }

    /** Word i of the padded block: message bytes, then 0x80, then zeros. */
    private static int word(byte[] m, int n, int i) {
        int p = 4 * i;
        if (p + 4 <= n) {
            return (int) LE_INT.get(m, p);
        }
        int word = 0;
        for (int j = 3; j >= 0; j--) {
            int q = p + j;
            word = (word << 8) | (q < n ? m[q] & 0xff : q == n ? 0x80 : 0);
        }
        return word;
    }
}
