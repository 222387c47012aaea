package org.loommpm.http2.hpack;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.twitter.hpack.Encoder;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.HexFormat;
import java.util.Random;
import org.junit.jupiter.api.Test;

/** The HPACK checks the library does not make (RFC 7541 §4.2, §5.2), and its own §6.3 bound. */
class BlockCheckTest {
    static String check(String hex) {
        byte[] b = HexFormat.of().parseHex(hex);
        return BlockCheck.violation(b, b.length);
    }

    @Test
    void validBlocksPass() throws IOException {
        // RFC 7541 C.4.1: a Huffman-coded request.
        assertNull(check("828684418cf1e3c2e5f23a6ba0ab90f4ff"));
        assertNull(check("3fe11f82")); // a size update first is fine
        Encoder e = new Encoder(4096);
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        for (String s : new String[] {"accept", "text/html", "user-agent", "curl/8.0", "x-long", "v".repeat(300)}) {
            e.encodeHeader(out, s.getBytes(StandardCharsets.US_ASCII), "value~!".getBytes(StandardCharsets.US_ASCII), false);
        }
        assertNull(BlockCheck.violation(out.toByteArray(), out.size()));
    }

    private static final String TEXT = "abcdefghijklmnopqrstuvwxyz0123456789-_./=:;,%";

    /** Every byte value, in strings of every length the encoder Huffman-codes, passes the check. */
    @Test
    void everyHuffmanCodedStringPasses() throws IOException {
        Random random = new Random(7);
        int huffman = 0;
        for (int i = 0; i < 3000; i++) {
            byte[] value = new byte[1 + random.nextInt(40)];
            for (int j = 0; j < value.length; j++) {
                // Mostly short-code text (so the encoder picks Huffman), now and then any byte
                // (codes up to 30 bits, walked across several nibbles).
                value[j] = (byte) (random.nextInt(20) == 0 ? random.nextInt(256) : TEXT.charAt(random.nextInt(TEXT.length())));
            }
            Encoder e = new Encoder(0); // no table: every field a literal
            ByteArrayOutputStream out = new ByteArrayOutputStream();
            e.encodeHeader(out, "x-field".getBytes(StandardCharsets.US_ASCII), value, false);
            assertNull(BlockCheck.violation(out.toByteArray(), out.size()), () -> HexFormat.of().formatHex(value));
            // The value's length byte follows the prefix byte, the name's length byte and the name.
            byte[] block = out.toByteArray();
            huffman += (block[2 + (block[1] & 0x7f)] & 0x80) != 0 ? 1 : 0;
        }
        assertTrue(huffman > 1000, "the encoder Huffman-coded " + huffman + " of 3000 values");
    }

    @Test
    void sizeUpdateAfterAFieldIsAnError() {
        assertEquals("dynamic table size update after a header field", check("823fe11f"));
    }

    @Test
    void atMostTwoSizeUpdatesAtTheStart() {
        assertNull(check("203fe11f82")); // the smallest size (0), then the final one (4096)
        assertEquals("more than two dynamic table size updates", check("20203fe11f82"));
        assertEquals("more than two dynamic table size updates", check("20".repeat(8000) + "82"));
    }

    /** RFC 7541 §6.3: enforced by the library's decoder, which knows the announced size. */
    @Test
    void sizeUpdateAboveTheAnnouncedTableSizeIsAnError() throws IOException {
        HpackCodec codec = new HpackCodec(65536, 4096);
        byte[] atLimit = HexFormat.of().parseHex("3fe11f82"); // 4096
        codec.decode(atLimit, atLimit.length, false);
        byte[] above = HexFormat.of().parseHex("3fe21f82"); // 4097
        assertThrows(IOException.class, () -> codec.decode(above, above.length, false));
    }

    @Test
    void truncatedRepresentations() {
        assertEquals("truncated string literal", check("000561"));
        assertEquals("truncated index", check("ff"));
        assertEquals("truncated string literal", check("0001"));
    }

    @Test
    void huffmanPaddingRules() {
        assertNull(check("0001618" + "11f")); // 'a' = 00011 + 111 padding
        assertEquals("Huffman padding not all ones", check("000161" + "8118"));
        assertEquals("Huffman padding longer than 7 bits", check("000161" + "821fff"));
        assertEquals("EOS symbol in a Huffman string", check("000161" + "84fffffffc"));
    }

    @Test
    void codecRejectsThemAsCompressionErrors() {
        HpackCodec codec = new HpackCodec(65536, 4096);
        byte[] bad = HexFormat.of().parseHex("823fe11f");
        assertThrows(IOException.class, () -> codec.decode(bad, bad.length, false));
    }

    /**
     * The byte-table walk against RFC 7541 §5.2 read literally (a walk bit by bit, matching
     * codes of the library's Appendix B table, as the check was first written): random strings,
     * valid codes with random padding, and runs of ones around EOS's 30 bits.
     */
    @Test
    void byteTableAgreesWithABitByBitWalk() throws ReflectiveOperationException {
        Class<?> util = Class.forName("com.twitter.hpack.HpackUtil");
        java.lang.reflect.Field c = util.getDeclaredField("HUFFMAN_CODES");
        java.lang.reflect.Field l = util.getDeclaredField("HUFFMAN_CODE_LENGTHS");
        c.setAccessible(true);
        l.setAccessible(true);
        int[] codes = (int[]) c.get(null);
        byte[] lengths = (byte[]) l.get(null);
        java.util.Map<Long, Integer> symbols = new java.util.HashMap<>();
        for (int sym = 0; sym < codes.length; sym++) {
            symbols.put((long) lengths[sym] << 32 | codes[sym], sym);
        }
        Random random = new Random(50);
        int[] outcomes = new int[4];
        for (int i = 0; i < 200_000; i++) {
            byte[] s = switch (i % 4) {
                case 0 -> randomBytes(random);
                case 1 -> validCodes(random, codes, lengths);
                case 2 -> ones(random);
                default -> flip(random, validCodes(random, codes, lengths));
            };
            String expected = bitByBit(s, symbols);
            byte[] block = new byte[3 + s.length];
            block[0] = 0x00; // literal without indexing, new name
            block[1] = 0x00; // empty name (plain)
            block[2] = (byte) (0x80 | s.length); // Huffman-coded value
            System.arraycopy(s, 0, block, 3, s.length);
            assertEquals(expected, BlockCheck.violation(block, block.length), () -> HexFormat.of().formatHex(s));
            outcomes[expected == null ? 0 : expected.startsWith("EOS") ? 1 : expected.contains("longer") ? 2 : 3]++;
        }
        for (int n : outcomes) {
            assertTrue(n > 1000, () -> "each outcome often: " + java.util.Arrays.toString(outcomes));
        }
    }

    private static String bitByBit(byte[] s, java.util.Map<Long, Integer> symbols) {
        long code = 0;
        int bits = 0;
        boolean ones = true;
        for (byte x : s) {
            for (int bit = 7; bit >= 0; bit--) {
                int v = x >>> bit & 1;
                code = code << 1 | v;
                bits++;
                ones &= v == 1;
                Integer sym = symbols.get((long) bits << 32 | code);
                if (sym != null) {
                    if (sym == 256) {
                        return "EOS symbol in a Huffman string";
                    }
                    code = 0;
                    bits = 0;
                    ones = true;
                }
            }
        }
        if (bits > 7) {
            return "Huffman padding longer than 7 bits";
        }
        return ones ? null : "Huffman padding not all ones";
    }

    private static byte[] randomBytes(Random random) {
        byte[] s = new byte[random.nextInt(12)];
        random.nextBytes(s);
        return s;
    }

    /** Whole symbols (any of the 256), then 0-15 padding bits, ones or not. */
    private static byte[] validCodes(Random random, int[] codes, byte[] lengths) {
        java.util.BitSet bits = new java.util.BitSet();
        int n = 0;
        for (int k = random.nextInt(8); k > 0; k--) {
            int sym = random.nextInt(4) == 0 ? random.nextInt(256) : 'a' + random.nextInt(26);
            for (int bit = lengths[sym] - 1; bit >= 0; bit--) {
                bits.set(n++, (codes[sym] >>> bit & 1) == 1);
            }
        }
        int pad = random.nextInt(3) == 0 ? random.nextInt(16) : (8 - n % 8) % 8;
        boolean allOnes = random.nextInt(3) != 0;
        for (int k = 0; k < pad; k++) {
            bits.set(n++, allOnes || random.nextBoolean());
        }
        return pack(bits, n, random.nextBoolean());
    }

    /** A run of ones of 0-40 bits, after a random symbol prefix, ending at a byte with ones or zeros. */
    private static byte[] ones(Random random) {
        java.util.BitSet bits = new java.util.BitSet();
        int n = random.nextInt(6);
        for (int k = 0; k < n; k++) {
            bits.set(k, random.nextBoolean());
        }
        int run = random.nextInt(41);
        bits.set(n, n + run);
        return pack(bits, n + run, random.nextBoolean());
    }

    private static byte[] flip(Random random, byte[] s) {
        if (s.length > 0) {
            s[random.nextInt(s.length)] ^= (byte) (1 << random.nextInt(8));
        }
        return s;
    }

    /** The first {@code n} bits, the last byte filled with ones or zeros. */
    private static byte[] pack(java.util.BitSet bits, int n, boolean fillOnes) {
        byte[] s = new byte[(n + 7) / 8];
        for (int k = 0; k < s.length * 8; k++) {
            if (k < n ? bits.get(k) : fillOnes) {
                s[k / 8] |= (byte) (0x80 >>> k % 8);
            }
        }
        return s;
    }
}
