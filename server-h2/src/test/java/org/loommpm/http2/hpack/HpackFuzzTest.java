package org.loommpm.http2.hpack;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.code_intelligence.jazzer.api.FuzzedDataProvider;
import com.code_intelligence.jazzer.junit.FuzzTest;
import com.twitter.hpack.Encoder;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import org.loommpm.api.Headers;

/**
 * Fuzzes HPACK decoding as a connection does it: {@link HpackCodec#decode}, which runs
 * {@link BlockCheck} and then {@code com.twitter:hpack}'s decoder, over a series of header blocks
 * sharing one dynamic table. Without {@code JAZZER_FUZZ} it replays the corpora in
 * {@code HpackFuzzTestInputs/} (docs/fuzzing.md).
 *
 * <p>{@link #decode}: the only failure is an {@link IOException} (a COMPRESSION_ERROR), never one
 * wrapping a runtime exception of the library (what the block check exists to prevent); a block
 * never decodes into more than the header-list limit (an HPACK bomb is cut, not held); and
 * {@link BlockCheck} never throws.
 *
 * <p>{@link #roundTrip}: whatever the library's encoder writes (Huffman or not, indexed or not,
 * with table size updates) passes the block check and decodes to the same fields.
 */
class HpackFuzzTest {
    private static final int MAX_LIST = 1024;
    /** Per field the decoder counts name + value; the joined cookie adds "; " per crumb. */
    private static final int COOKIE_JOIN = 2;

    @FuzzTest(maxDuration = "10m")
    void decode(FuzzedDataProvider data) {
        HpackCodec codec = new HpackCodec(MAX_LIST, 4096);
        boolean trailers = data.consumeBoolean();
        while (data.remainingBytes() > 0) {
            byte[] block = data.consumeBytes(data.consumeInt(0, 2048));
            BlockCheck.violation(block, block.length);
            FieldBlock fields;
            try {
                fields = codec.decode(block, block.length, trailers);
            } catch (IOException e) {
                assertTrue(!(e.getCause() instanceof RuntimeException), "the library failed: " + e.getCause());
                return; // a COMPRESSION_ERROR ends the connection, and so the table
            }
            long size = 0;
            Headers h = fields.headers();
            for (int i = 0; i < h.size(); i++) {
                size += h.name(i).length() + h.value(i).length();
            }
            assertTrue(size <= (long) MAX_LIST * (1 + COOKIE_JOIN), "a block decoded into " + size + " bytes");
        }
    }

    @FuzzTest(maxDuration = "10m")
    void roundTrip(FuzzedDataProvider data) throws IOException {
        int tableSize = data.consumeInt(0, 4096);
        Encoder encoder = new Encoder(4096);
        HpackCodec codec = new HpackCodec(1 << 20, 4096);
        for (int blocks = data.consumeInt(1, 4); blocks > 0; blocks--) {
            ByteArrayOutputStream out = new ByteArrayOutputStream();
            if (data.consumeBoolean()) {
                encoder.setMaxHeaderTableSize(out, tableSize);
            }
            List<String> expected = new ArrayList<>();
            field(encoder, out, ":method", "GET", false);
            field(encoder, out, ":scheme", "https", false);
            field(encoder, out, ":path", "/" + data.consumeAsciiString(20).replaceAll("[^!-~]", "p"), false);
            for (int n = data.consumeInt(0, 12); n > 0; n--) {
                String name = "x-" + data.consumeAsciiString(10).toLowerCase().replaceAll("[^a-z0-9-]", "n");
                String value = data.consumeAsciiString(60).replaceAll("[^ -~]", "v").strip();
                field(encoder, out, name, value, data.consumeBoolean());
                expected.add(name + ": " + value);
            }
            byte[] block = out.toByteArray();
            assertNull(BlockCheck.violation(block, block.length), "the block check refused an encoder's block");
            FieldBlock fields = codec.decode(block, block.length, false);
            assertNull(fields.malformed());
            List<String> got = new ArrayList<>();
            fields.headers().forEach((k, v) -> got.add(k + ": " + v));
            assertEquals(expected, got);
        }
    }

    private static void field(Encoder e, ByteArrayOutputStream out, String name, String value, boolean sensitive)
            throws IOException {
        e.encodeHeader(out, name.getBytes(StandardCharsets.US_ASCII), value.getBytes(StandardCharsets.US_ASCII), sensitive);
    }
}
