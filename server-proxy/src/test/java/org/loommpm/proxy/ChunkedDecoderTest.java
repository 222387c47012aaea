package org.loommpm.proxy;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

/** The chunked coding decoded as bytes arrive, in any split, as an event loop reads them. */
class ChunkedDecoderTest {
    private static final String MESSAGE = "5;ext=1\r\nhello\r\n6 \r\n world\r\n0\r\nX-Trailer: t\r\n\r\nNEXT";

    /** Feeds {@code wire} in pieces of {@code step} bytes; returns the data and how much was consumed. */
    private static String decode(String wire, int step, int[] consumed) throws BackendProtocolException {
        byte[] b = wire.getBytes(StandardCharsets.ISO_8859_1);
        ChunkedDecoder d = new ChunkedDecoder();
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        int total = 0;
        for (int off = 0; off < b.length && !d.isDone(); off += step) {
            total += d.decode(b, off, Math.min(b.length, off + step), out::write);
        }
        consumed[0] = total;
        assertTrue(d.isDone());
        return out.toString(StandardCharsets.ISO_8859_1);
    }

    @Test
    void decodesInEverySplitAndStopsAtTheMessageEnd() throws Exception {
        int end = MESSAGE.indexOf("NEXT");
        for (int step = 1; step <= MESSAGE.length(); step++) {
            int[] consumed = new int[1];
            assertEquals("hello world", decode(MESSAGE, step, consumed), "step " + step);
            assertEquals(end, consumed[0], "what follows the message is not consumed, step " + step);
        }
    }

    @Test
    void bareLineFeedsAreAccepted() throws Exception {
        assertEquals("abc", decode("3\nabc\r\n0\n\n", 2, new int[1]));
    }

    @Test
    void brokenFramingIsAProtocolError() {
        for (String bad : new String[] {"g\r\n", "\r\n", "3\r\nabcX\r\n", "1234567890abcdef0\r\n", "3x\r\nabc\r\n0\r\n\r\n",
                "3\rXabc"}) {
            ChunkedDecoder d = new ChunkedDecoder();
            byte[] b = bad.getBytes(StandardCharsets.ISO_8859_1);
            assertThrows(BackendProtocolException.class, () -> d.decode(b, 0, b.length, (x, o, n) -> { }), bad);
        }
    }

    @Test
    void anUnfinishedMessageIsNotDone() throws Exception {
        ChunkedDecoder d = new ChunkedDecoder();
        byte[] b = "5\r\nhel".getBytes(StandardCharsets.ISO_8859_1);
        assertEquals(b.length, d.decode(b, 0, b.length, (x, o, n) -> { }));
        assertFalse(d.isDone());
    }
}
