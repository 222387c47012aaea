package org.loommpm.cli.logging;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

class LogLineTest {
    private static String escaped(String s) {
        return new LogLine(0).escaped(s).toString();
    }

    @Test
    void escapesAsHttpdDoes() {
        assertEquals("-", escaped(null));
        assertEquals("GET /a?b=c HTTP/1.1", escaped("GET /a?b=c HTTP/1.1"));
        assertEquals("a\\\"b\\\\c", escaped("a\"b\\c"));
        assertEquals("x\\ny\\tz\\x01\\x7f", escaped("x\ny\tz\u0001\u007f"));
        // Non-ASCII as the \xhh of its UTF-8 bytes, a surrogate pair as one code point.
        assertEquals("caf\\xc3\\xa9", escaped("café"));
        assertEquals("\\xf0\\x9f\\x98\\x80!", escaped("\uD83D\uDE00!"));
        // A forged line break never reaches the file as one.
        assertEquals("ok\\x0d\\n", escaped("ok\r\n"));
        // Text read as ISO-8859-1 (fields, the request line): each char is a byte the client sent.
        assertEquals("caf\\xc3\\xa9 \\xe9\\\"", new LogLine(0).escapedBytes("caf\u00c3\u00a9 \u00e9\"").toString());
    }

    @Test
    void numbersAndText() {
        for (long v : new long[] {0, 7, 10, 99, 100, 123456789, -1, -42, Long.MAX_VALUE, Long.MIN_VALUE}) {
            assertEquals(Long.toString(v), new LogLine(0).number(v).toString());
        }
        assertEquals("host-é.example", new LogLine(0).text("host-é.example").toString());
        assertEquals("[x] 12", new LogLine(0).bytes("[x]".getBytes(StandardCharsets.US_ASCII)).ascii(' ')
                .number(12).toString());
    }

    @Test
    void growsBeyondItsFirstCapacity() {
        String big = "y".repeat(10_000);
        LogLine line = new LogLine(16).ascii('<').escaped(big).ascii('>');
        assertEquals(10_002, line.length());
        assertEquals("<" + big + ">", line.toString());
    }
}
