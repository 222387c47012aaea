package org.loommpm.http1;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.EOFException;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import org.junit.jupiter.params.provider.ValueSource;
import org.loommpm.api.HttpException;

class ChunkedInputStreamTest {
    private static final String NEXT = "GET /next HTTP/1.1\r\n\r\n";

    /** A raw stream that hands out at most one byte per read, like a very slow client. */
    static final class TrickleInputStream extends InputStream {
        private final ByteArrayInputStream in;

        TrickleInputStream(byte[] bytes) {
            this.in = new ByteArrayInputStream(bytes);
        }

        @Override
        public int read() {
            return in.read();
        }

        @Override
        public int read(byte[] b, int off, int len) {
            return len == 0 ? 0 : in.read(b, off, 1);
        }
    }

    private static byte[] bytes(String s) {
        return s.getBytes(StandardCharsets.ISO_8859_1);
    }

    private static ChunkedInputStream chunked(InputStream raw) {
        return new ChunkedInputStream(raw, 0, 10, 100);
    }

    private static String readAll(InputStream in) throws IOException {
        return new String(in.readAllBytes(), StandardCharsets.ISO_8859_1);
    }

    private static String readByteByByte(InputStream in) throws IOException {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        for (int b = in.read(); b >= 0; b = in.read()) {
            out.write(b);
        }
        return out.toString(StandardCharsets.ISO_8859_1);
    }

    private static int status(ChunkedInputStream in) {
        return assertThrows(HttpException.class, () -> in.readAllBytes()).status();
    }

    static Stream<Arguments> bodies() {
        return Stream.of(
                Arguments.of("5\r\nhello\r\n0\r\n\r\n", "hello"),
                Arguments.of("0\r\n\r\n", ""),
                Arguments.of("5\r\nhello\r\n6\r\n world\r\n0\r\n\r\n", "hello world"),
                Arguments.of("A\r\n0123456789\r\n0\r\n\r\n", "0123456789"),
                Arguments.of("a\r\n0123456789\r\n000\r\n\r\n", "0123456789"),
                Arguments.of("0000000000000005\r\nhello\r\n0\r\n\r\n", "hello"),
                Arguments.of("5;name=value\r\nhello\r\n0;last\r\n\r\n", "hello"),
                Arguments.of("5 ; a=\"q s\"; b\t;c\r\nhello\r\n0\r\n\r\n", "hello"),
                Arguments.of("3\r\n\r\n\n\r\n0\r\n\r\n", "\r\n\n"),
                Arguments.of("5\r\nhello\r\n0\r\nX-Sum: 1\r\n\r\n", "hello"));
    }

    @ParameterizedTest
    @MethodSource("bodies")
    void decodesInOneRead(String wire, String body) throws IOException {
        ByteArrayInputStream raw = new ByteArrayInputStream(bytes(wire + NEXT));
        ChunkedInputStream in = chunked(raw);
        assertEquals(body, readAll(in));
        assertEquals(NEXT, readAll(raw), "bytes after the body stay in the raw stream");
    }

    @ParameterizedTest
    @MethodSource("bodies")
    void decodesFromATrickle(String wire, String body) throws IOException {
        TrickleInputStream raw = new TrickleInputStream(bytes(wire + NEXT));
        ChunkedInputStream in = chunked(raw);
        assertEquals(body, readAll(in));
        assertEquals(NEXT, readAll(raw));
    }

    @ParameterizedTest
    @MethodSource("bodies")
    void decodesByteByByte(String wire, String body) throws IOException {
        ByteArrayInputStream raw = new ByteArrayInputStream(bytes(wire + NEXT));
        ChunkedInputStream in = chunked(raw);
        assertEquals(body, readByteByByte(in));
        assertEquals(NEXT, readAll(raw));
    }

    @Test
    void neverReadsPastTheChunkDataEvenWithALargeBuffer() throws IOException {
        ByteArrayInputStream raw = new ByteArrayInputStream(bytes("3\r\nabc\r\n0\r\n\r\n" + NEXT));
        ChunkedInputStream in = chunked(raw);
        byte[] buf = new byte[100];
        assertEquals(3, in.read(buf, 10, 100 - 10));
        assertEquals("abc", new String(buf, 10, 3, StandardCharsets.ISO_8859_1));
        assertEquals(-1, in.read(buf, 0, buf.length));
        assertEquals(bytes(NEXT).length, raw.available());
    }

    @Test
    void returnsMinusOneRepeatedlyAtTheEnd() throws IOException {
        ByteArrayInputStream raw = new ByteArrayInputStream(bytes("1\r\nx\r\n0\r\n\r\n" + NEXT));
        ChunkedInputStream in = chunked(raw);
        assertEquals('x', in.read());
        assertEquals(-1, in.read());
        assertEquals(-1, in.read());
        assertEquals(-1, in.read(new byte[4], 0, 4));
        assertEquals(0, in.read(new byte[4], 0, 0));
        assertEquals(0, in.available());
        assertEquals(NEXT, readAll(raw));
    }

    @Test
    void availableIsBoundedByTheChunk() throws IOException {
        ChunkedInputStream in = chunked(new ByteArrayInputStream(bytes("4\r\nabcd\r\n0\r\n\r\n" + NEXT)));
        assertEquals(0, in.available(), "nothing is known before the first size line is read");
        assertEquals('a', in.read());
        assertEquals(3, in.available());
    }

    @Test
    void collectsTrailers() throws IOException {
        ByteArrayInputStream raw = new ByteArrayInputStream(
                bytes("2\r\nab\r\n0\r\nX-Checksum: \t abc \r\nX-Other:v\r\nX-Latin: caf\u00e9\r\n\r\n" + NEXT));
        ChunkedInputStream in = chunked(raw);
        assertEquals(0, in.trailers().size());
        assertEquals("ab", readAll(in));
        assertEquals(3, in.trailers().size());
        assertEquals("abc", in.trailers().first("x-checksum"));
        assertEquals("v", in.trailers().first("X-Other"));
        assertEquals("caf\u00e9", in.trailers().first("X-Latin"));
        assertEquals(NEXT, readAll(raw));
    }

    @Test
    void dropsTrailerFieldsNoTrailerMayCarry() throws IOException {
        ByteArrayInputStream raw = new ByteArrayInputStream(bytes("2\r\nab\r\n0\r\nContent-Length: 5\r\n"
                + "X-Sum: 1\r\nTransfer-Encoding: chunked\r\nhost: evil\r\nAuthorization: x\r\nX-Sum: 2\r\n\r\n" + NEXT));
        ChunkedInputStream in = chunked(raw);
        assertEquals("ab", readAll(in));
        assertEquals("X-Sum: 1\nX-Sum: 2\n", in.trailers().toString());
        assertEquals(NEXT, readAll(raw));
    }

    static Stream<Arguments> malformed() {
        return Stream.of(
                Arguments.of("empty size", "\r\nabc\r\n0\r\n\r\n"),
                Arguments.of("non-hex size", "g\r\nabc\r\n0\r\n\r\n"),
                Arguments.of("negative size", "-1\r\nabc\r\n0\r\n\r\n"),
                Arguments.of("plus sign", "+3\r\nabc\r\n0\r\n\r\n"),
                Arguments.of("0x prefix", "0x3\r\nabc\r\n0\r\n\r\n"),
                Arguments.of("leading space", " 3\r\nabc\r\n0\r\n\r\n"),
                Arguments.of("trailing space without extension", "3 \r\nabc\r\n0\r\n\r\n"),
                Arguments.of("digits after space", "3 3\r\nabc\r\n0\r\n\r\n"),
                Arguments.of("extension without size", ";a\r\nabc\r\n0\r\n\r\n"),
                Arguments.of("17 hex digits", "00000000000000003\r\nabc\r\n0\r\n\r\n"),
                Arguments.of("size overflows a long", "8000000000000000\r\nabc\r\n0\r\n\r\n"),
                Arguments.of("bare CR in size line", "3\rabc\r\n0\r\n\r\n"),
                Arguments.of("bare LF after size", "3\nabc\r\n0\r\n\r\n"),
                Arguments.of("bare LF after extension", "3;a=b\nabc\r\n0\r\n\r\n"),
                Arguments.of("data followed by bare LF", "3\r\nabc\n0\r\n\r\n"),
                Arguments.of("bare LF after last-chunk", "3\r\nabc\r\n0\n\r\n"),
                Arguments.of("trailer ended by bare LF", "0\r\nA: 1\n\r\n"),
                Arguments.of("final empty line a bare LF", "0\r\nA: 1\r\n\n"),
                Arguments.of("CTL in extension", "3;a\u0001b\r\nabc\r\n0\r\n\r\n"),
                Arguments.of("NUL in extension", "3;a\u0000\r\nabc\r\n0\r\n\r\n"),
                Arguments.of("data longer than size", "3\r\nabcd\r\n0\r\n\r\n"),
                Arguments.of("data without CRLF", "3\r\nabc0\r\n\r\n"),
                Arguments.of("data followed by bare CR", "3\r\nabc\rx0\r\n\r\n"),
                Arguments.of("trailer obs-fold", "0\r\nA: 1\r\n 2\r\n\r\n"),
                Arguments.of("trailer without colon", "0\r\nA\r\n\r\n"),
                Arguments.of("trailer space before colon", "0\r\nA : 1\r\n\r\n"),
                Arguments.of("trailer empty name", "0\r\n: 1\r\n\r\n"),
                Arguments.of("trailer CTL", "0\r\nA: \u0007\r\n\r\n"),
                Arguments.of("trailer bare CR", "0\r\nA: 1\rB: 2\r\n\r\n"),
                Arguments.of("size line too long", "1;" + "x".repeat(ChunkedInputStream.MAX_SIZE_LINE - 1)
                        + "\r\nx\r\n0\r\n\r\n"));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("malformed")
    void rejectsMalformedFraming(String name, String wire) {
        assertEquals(400, status(chunked(new ByteArrayInputStream(bytes(wire)))));
    }

    @Test
    void acceptsASizeLineAtItsLimit() throws IOException {
        String wire = "1;" + "x".repeat(ChunkedInputStream.MAX_SIZE_LINE - 2) + "\r\nx\r\n0\r\n\r\n";
        assertEquals("x", readAll(chunked(new ByteArrayInputStream(bytes(wire)))));
    }

    @Test
    void limitsTheBody() throws IOException {
        String atLimit = "4\r\nabcd\r\n6\r\nefghij\r\n0\r\n\r\n";
        assertEquals("abcdefghij", readAll(new ChunkedInputStream(new ByteArrayInputStream(bytes(atLimit)), 10, 10, 100)));
        String over = "4\r\nabcd\r\n7\r\nefghijk\r\n0\r\n\r\n";
        ChunkedInputStream in = new ChunkedInputStream(new ByteArrayInputStream(bytes(over)), 10, 10, 100);
        byte[] buf = new byte[4];
        assertEquals(4, in.readNBytes(buf, 0, 4), "chunks within the limit are delivered");
        assertEquals(413, assertThrows(HttpException.class, in::read).status());
    }

    @Test
    void rejectsAHugeChunkBeforeReadingItsData() {
        ChunkedInputStream in = new ChunkedInputStream(
                new ByteArrayInputStream(bytes("7fffffffffffffff\r\n")), 1L << 30, 10, 100);
        assertEquals(413, assertThrows(HttpException.class, in::read).status());
    }

    @Test
    void limitsTrailerFields() throws IOException {
        String two = "0\r\nA: 1\r\nB: 2\r\n";
        ChunkedInputStream ok = new ChunkedInputStream(new ByteArrayInputStream(bytes(two + "\r\n")), 0, 2, 100);
        assertEquals(-1, ok.read());
        assertEquals(2, ok.trailers().size());
        ChunkedInputStream over = new ChunkedInputStream(new ByteArrayInputStream(bytes(two + "C: 3\r\n\r\n")), 0, 2, 100);
        assertEquals(431, status(over));
    }

    @Test
    void limitsTrailerFieldSize() throws IOException {
        String atLimit = "X: " + "v".repeat(300 - 3);
        ChunkedInputStream ok = new ChunkedInputStream(
                new ByteArrayInputStream(bytes("0\r\n" + atLimit + "\r\n\r\n")), 0, 10, 300);
        assertEquals(-1, ok.read());
        assertEquals(297, ok.trailers().first("X").length());
        ChunkedInputStream over = new ChunkedInputStream(
                new ByteArrayInputStream(bytes("0\r\n" + atLimit + "v\r\n\r\n")), 0, 10, 300);
        assertEquals(431, status(over));
    }

    @ParameterizedTest
    @ValueSource(strings = {"", "5", "5\r", "5;ext", "5\r\nhel", "5\r\nhello", "5\r\nhello\r", "5\r\nhello\r\n0",
        "5\r\nhello\r\n0\r\n", "5\r\nhello\r\n0\r\nA: 1\r\n", "5\r\nhello\r\n0\r\n\r"})
    void prematureEndIsAnEofException(String wire) {
        assertThrows(EOFException.class, () -> chunked(new ByteArrayInputStream(bytes(wire))).readAllBytes());
        assertThrows(EOFException.class, () -> readByteByByte(chunked(new TrickleInputStream(bytes(wire)))));
    }

    @Test
    void decodesALargeBodyInChunks() throws IOException {
        byte[] data = new byte[100_000];
        for (int i = 0; i < data.length; i++) {
            data[i] = (byte) (i * 31);
        }
        ByteArrayOutputStream wire = new ByteArrayOutputStream();
        for (int off = 0; off < data.length; off += 7_000) {
            int n = Math.min(7_000, data.length - off);
            wire.writeBytes(bytes(Integer.toHexString(n) + "\r\n"));
            wire.write(data, off, n);
            wire.writeBytes(bytes("\r\n"));
        }
        wire.writeBytes(bytes("0\r\n\r\n" + NEXT));
        ByteArrayInputStream raw = new ByteArrayInputStream(wire.toByteArray());
        assertArrayEquals(data, chunked(raw).readAllBytes());
        assertEquals(NEXT, readAll(raw));
    }
}
