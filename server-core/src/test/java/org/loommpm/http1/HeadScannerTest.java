package org.loommpm.http1;

import static org.junit.jupiter.api.Assertions.assertDoesNotThrow;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import org.loommpm.api.HttpException;
import org.loommpm.http.RequestHead;

class HeadScannerTest {
    private static final int LINE = 32;
    private static final int FIELDS = 3;
    private static final int FIELD_SIZE = 24;

    private static byte[] bytes(String s) {
        return s.getBytes(StandardCharsets.ISO_8859_1);
    }

    private static HeadScanner scanner() {
        return new HeadScanner(LINE, FIELDS, FIELD_SIZE);
    }

    /** The outcome of a scan: {head end, request line start} or {-status, 0}. */
    private static int[] oneShot(byte[] buf) {
        HeadScanner s = scanner();
        try {
            int end = s.scan(buf, 0, buf.length);
            return new int[] {end, end < 0 ? 0 : s.requestLineStart()};
        } catch (HttpException e) {
            return new int[] {-e.status(), 0};
        }
    }

    private static int[] byteByByte(byte[] buf) {
        HeadScanner s = scanner();
        try {
            for (int end = 0; end <= buf.length; end++) {
                int r = s.scan(buf, 0, end);
                if (r >= 0) {
                    return new int[] {r, s.requestLineStart()};
                }
            }
            return new int[] {-1, 0};
        } catch (HttpException e) {
            return new int[] {-e.status(), 0};
        }
    }

    static Stream<String> heads() {
        return Stream.of(
                "GET / HTTP/1.1\r\nHost: h\r\n\r\n",
                "GET / HTTP/1.1\nHost: h\n\n",
                "GET / HTTP/1.1\r\nHost: h\n\r\n",
                "\r\n\r\nGET / HTTP/1.1\r\nHost: h\r\n\r\n",
                "\n\nGET / HTTP/1.1\r\n\r\n",
                "GET / HTTP/1.1\r\n\r\nbody",
                "GET / HTTP/1.1\r\nA: 1\r\nB: 2\r\nC: 3\r\n\r\n",
                "GET / HTTP/1.1\r\nA: 1\r\nB: 2\r\nC: 3\r\nD: 4\r\n\r\n",
                "GET / HTTP/1.1\r\nX: " + "v".repeat(FIELD_SIZE - 3) + "\r\n\r\n",
                "GET / HTTP/1.1\r\nX: " + "v".repeat(FIELD_SIZE - 2) + "\r\n\r\n",
                "GET /" + "a".repeat(LINE - 14) + " HTTP/1.1\r\n\r\n",
                "GET /" + "a".repeat(LINE - 13) + " HTTP/1.1\r\n\r\n",
                "\r\n".repeat(HeadScanner.MAX_LEADING_EMPTY_LINES) + "GET / HTTP/1.1\r\n\r\n",
                "\r\n".repeat(HeadScanner.MAX_LEADING_EMPTY_LINES + 1) + "GET / HTTP/1.1\r\n\r\n",
                "GET / HTTP/1.1\r\nA: 1\r\n",
                "GET / HTTP/1.1\r\nA: 1\r\n\r",
                "GET / HTTP/1.1\r\nA: \r1\r\n\r\n",
                "");
    }

    @ParameterizedTest
    @MethodSource("heads")
    void byteByByteScanningEqualsOneShotScanning(String head) {
        byte[] buf = bytes(head);
        assertEquals(Arrays.toString(oneShot(buf)), Arrays.toString(byteByByte(buf)));
    }

    @Test
    void findsTheEndOfAHead() {
        byte[] buf = bytes("GET / HTTP/1.1\r\nHost: h\r\n\r\nBODY");
        HeadScanner s = scanner();
        assertEquals(buf.length - 4, s.scan(buf, 0, buf.length));
        assertEquals(0, s.requestLineStart());
    }

    @Test
    void acceptsBareLf() {
        byte[] buf = bytes("GET / HTTP/1.1\nHost: h\n\n");
        assertEquals(buf.length, scanner().scan(buf, 0, buf.length));
    }

    /** HTTP/0.9's one-line request has no head end: refused as soon as its line ends. */
    @Test
    void rejectsARequestLineWithoutAVersionWhenItEnds() {
        for (String line : new String[] {"GET /\r\n", "GET /\n", "GET / \r\n", "GET /HTTP/1.1\r\n", "HTTP/1.1\r\n"}) {
            byte[] buf = bytes(line);
            HeadScanner s = scanner();
            assertEquals(-1, s.scan(buf, 0, buf.length - 1), line);
            assertEquals(400, assertThrows(HttpException.class, () -> s.scan(buf, 0, buf.length)).status(), line);
        }
    }

    @Test
    void skipsLeadingEmptyLines() {
        byte[] buf = bytes("\r\n\n\r\nGET / HTTP/1.1\r\n\r\n");
        HeadScanner s = scanner();
        assertEquals(buf.length, s.scan(buf, 0, buf.length));
        assertEquals(5, s.requestLineStart());
    }

    @Test
    void limitsLeadingEmptyLines() {
        String ok = "\r\n".repeat(HeadScanner.MAX_LEADING_EMPTY_LINES);
        byte[] atLimit = bytes(ok + "GET / HTTP/1.1\r\n\r\n");
        assertEquals(atLimit.length, scanner().scan(atLimit, 0, atLimit.length));
        byte[] over = bytes(ok + "\r\n");
        assertEquals(400, assertThrows(HttpException.class, () -> scanner().scan(over, 0, over.length)).status());
    }

    @Test
    void resumesWhereItStopped() {
        byte[] buf = bytes("GET / HTTP/1.1\r\nHost: h\r\n\r\n");
        HeadScanner s = scanner();
        assertEquals(-1, s.scan(buf, 0, 10));
        assertEquals(-1, s.scan(buf, 0, 16));
        assertEquals(-1, s.scan(buf, 0, buf.length - 1));
        assertEquals(buf.length, s.scan(buf, 0, buf.length));
        assertEquals(buf.length, s.scan(buf, 0, buf.length), "a finished scan keeps its answer");
    }

    @Test
    void toleratesTheHeadMovingWithinTheBuffer() {
        byte[] head = bytes("GET / HTTP/1.1\r\nHost: h\r\n\r\n");
        byte[] buf = new byte[64];
        System.arraycopy(head, 0, buf, 20, 18);
        HeadScanner s = scanner();
        assertEquals(-1, s.scan(buf, 20, 38));
        byte[] compacted = new byte[64];
        System.arraycopy(head, 0, compacted, 0, head.length);
        assertEquals(head.length, s.scan(compacted, 0, head.length));
        assertEquals(0, s.requestLineStart());
    }

    @Test
    void scansPipelinedHeadsInOneBuffer() {
        String first = "\r\nGET /1 HTTP/1.1\r\nHost: h\r\n\r\n";
        String second = "GET /2 HTTP/1.1\nHost: h\n\n";
        String third = "POST /3 HTTP/1.1\r\nHost: h\r\nContent-Length: 2\r\n\r\nxy";
        byte[] buf = bytes(first + second + third);
        HeadScanner s = scanner();
        RequestHeadParser parser = new RequestHeadParser(LINE, FIELDS, 64, 0);

        int end1 = s.scan(buf, 0, buf.length);
        assertEquals(first.length(), end1);
        assertEquals("/1", parser.parse(buf, s.requestLineStart(), end1).path());

        s.reset();
        int end2 = s.scan(buf, end1, buf.length);
        assertEquals(end1 + second.length(), end2);
        assertEquals(end1, s.requestLineStart());
        assertEquals("/2", parser.parse(buf, s.requestLineStart(), end2).path());

        s.reset();
        int end3 = s.scan(buf, end2, buf.length);
        assertEquals(buf.length - 2, end3);
        RequestHead h3 = parser.parse(buf, s.requestLineStart(), end3);
        assertEquals("/3", h3.path());
        assertEquals(2, h3.contentLength());
    }

    @Test
    void resetForgetsTheOldHead() {
        byte[] buf = bytes("GET / HTTP/1.1\r\n\r\n");
        HeadScanner s = scanner();
        assertEquals(buf.length, s.scan(buf, 0, buf.length));
        s.reset();
        assertEquals(-1, s.scan(buf, 0, 5));
        assertThrows(IllegalStateException.class, s::requestLineStart);
    }

    @Test
    void requestLineStartNeedsARequestLine() {
        assertThrows(IllegalStateException.class, () -> scanner().requestLineStart());
    }

    @Test
    void limitsAnUnterminatedRequestLineEarly() {
        byte[] atLimit = bytes("GET /" + "a".repeat(LINE - 5));
        assertEquals(-1, scanner().scan(atLimit, 0, atLimit.length));
        byte[] atLimitWithCr = bytes("GET /" + "a".repeat(LINE - 5) + "\r");
        assertEquals(-1, scanner().scan(atLimitWithCr, 0, atLimitWithCr.length), "the CR may start the CRLF");
        byte[] over = bytes("GET /" + "a".repeat(LINE - 4));
        assertEquals(414, assertThrows(HttpException.class, () -> scanner().scan(over, 0, over.length)).status());
    }

    @Test
    void limitsACompleteRequestLine() {
        byte[] atLimit = bytes("GET /" + "a".repeat(LINE - 14) + " HTTP/1.1\r\n\r\n");
        assertEquals(atLimit.length, scanner().scan(atLimit, 0, atLimit.length));
        byte[] over = bytes("GET /" + "a".repeat(LINE - 13) + " HTTP/1.1\n\n");
        assertEquals(414, assertThrows(HttpException.class, () -> scanner().scan(over, 0, over.length)).status());
    }

    @Test
    void limitsAFieldLineEarly() {
        String head = "GET / HTTP/1.1\r\n";
        byte[] atLimit = bytes(head + "X: " + "v".repeat(FIELD_SIZE - 3));
        assertEquals(-1, scanner().scan(atLimit, 0, atLimit.length));
        byte[] over = bytes(head + "X: " + "v".repeat(FIELD_SIZE - 2));
        assertEquals(431, assertThrows(HttpException.class, () -> scanner().scan(over, 0, over.length)).status());
        byte[] completeOver = bytes(head + "X: " + "v".repeat(FIELD_SIZE - 2) + "\r\n\r\n");
        assertEquals(431, assertThrows(HttpException.class,
                () -> scanner().scan(completeOver, 0, completeOver.length)).status());
    }

    @Test
    void limitsTheNumberOfFieldsEarly() {
        String atLimit = "GET / HTTP/1.1\r\nA: 1\r\nB: 2\r\nC: 3\r\n";
        byte[] ok = bytes(atLimit + "\r\n");
        assertEquals(ok.length, scanner().scan(ok, 0, ok.length));
        byte[] maybeEnd = bytes(atLimit + "\r");
        assertEquals(-1, scanner().scan(maybeEnd, 0, maybeEnd.length));
        byte[] partialFourth = bytes(atLimit + "D");
        assertEquals(431, assertThrows(HttpException.class,
                () -> scanner().scan(partialFourth, 0, partialFourth.length)).status());
        byte[] fourth = bytes(atLimit + "D: 4\r\n\r\n");
        assertEquals(431, assertThrows(HttpException.class, () -> scanner().scan(fourth, 0, fourth.length)).status());
    }

    @Test
    void leavesSyntaxToTheParser() {
        byte[] buf = bytes("GET / HTTP/1.1\r\nX: a\rb\r\n\r\n");
        int end = assertDoesNotThrow(() -> scanner().scan(buf, 0, buf.length));
        assertEquals(buf.length, end);
        assertEquals(400, assertThrows(HttpException.class,
                () -> new RequestHeadParser(LINE, FIELDS, FIELD_SIZE, 0).parse(buf, 0, end)).status());
    }
}
