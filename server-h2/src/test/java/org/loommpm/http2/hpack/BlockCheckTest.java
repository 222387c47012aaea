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
}
