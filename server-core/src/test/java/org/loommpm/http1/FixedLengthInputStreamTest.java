package org.loommpm.http1;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.io.ByteArrayInputStream;
import java.io.EOFException;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

class FixedLengthInputStreamTest {
    private static ByteArrayInputStream raw(String s) {
        return new ByteArrayInputStream(s.getBytes(StandardCharsets.US_ASCII));
    }

    @Test
    void readsExactlyTheLengthAndNoMore() throws IOException {
        ByteArrayInputStream raw = raw("helloNEXT");
        FixedLengthInputStream in = new FixedLengthInputStream(raw, 5);
        assertEquals(5, in.remaining());
        assertEquals(5, in.available());
        byte[] buf = new byte[64];
        assertEquals(5, in.read(buf, 0, buf.length));
        assertEquals("hello", new String(buf, 0, 5, StandardCharsets.US_ASCII));
        assertEquals(0, in.remaining());
        assertEquals(-1, in.read(buf, 0, buf.length));
        assertEquals(-1, in.read());
        assertEquals(0, in.available());
        assertEquals("NEXT", new String(raw.readAllBytes(), StandardCharsets.US_ASCII));
    }

    @Test
    void readsByteByByte() throws IOException {
        ByteArrayInputStream raw = raw("abcNEXT");
        FixedLengthInputStream in = new FixedLengthInputStream(raw, 3);
        assertEquals('a', in.read());
        assertEquals(2, in.remaining());
        assertEquals('b', in.read());
        assertEquals('c', in.read());
        assertEquals(-1, in.read());
        assertEquals(4, raw.available());
    }

    @Test
    void readsFromATrickle() throws IOException {
        ChunkedInputStreamTest.TrickleInputStream raw =
                new ChunkedInputStreamTest.TrickleInputStream("abcdefNEXT".getBytes(StandardCharsets.US_ASCII));
        FixedLengthInputStream in = new FixedLengthInputStream(raw, 6);
        assertEquals("abcdef", new String(in.readAllBytes(), StandardCharsets.US_ASCII));
        assertEquals("NEXT", new String(raw.readAllBytes(), StandardCharsets.US_ASCII));
    }

    @Test
    void emptyBody() throws IOException {
        ByteArrayInputStream raw = raw("NEXT");
        FixedLengthInputStream in = new FixedLengthInputStream(raw, 0);
        assertEquals(-1, in.read());
        assertEquals(0, in.read(new byte[1], 0, 0));
        assertEquals(4, raw.available());
    }

    @Test
    void prematureEndIsAnEofException() throws IOException {
        FixedLengthInputStream in = new FixedLengthInputStream(raw("abc"), 5);
        assertThrows(EOFException.class, in::readAllBytes);
        assertEquals(2, in.remaining());
        assertThrows(EOFException.class, () -> new FixedLengthInputStream(raw(""), 1).read());
    }

    @Test
    void rejectsANegativeLength() {
        assertThrows(IllegalArgumentException.class, () -> new FixedLengthInputStream(raw(""), -1));
    }
}
