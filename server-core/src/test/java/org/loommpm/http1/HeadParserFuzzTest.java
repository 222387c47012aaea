package org.loommpm.http1;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.code_intelligence.jazzer.junit.FuzzTest;
import java.nio.charset.StandardCharsets;
import java.util.Set;
import org.loommpm.api.Headers;
import org.loommpm.api.HttpException;
import org.loommpm.http.RequestHead;

/**
 * Fuzzes the HTTP/1.1 request head path as a connection runs it: {@link HeadScanner} over the
 * bytes as they arrive, then {@link RequestHeadParser} on the complete head. Without
 * {@code JAZZER_FUZZ} it replays the seed corpus in {@code HeadParserFuzzTestInputs/head}
 * (docs/fuzzing.md).
 *
 * <p>Properties: the only failure is an {@link HttpException} with a status the parsers document;
 * a head fed one byte at a time gives the same outcome as fed at once (the scanner's resumable
 * state is exact); an incomplete head never holds more bytes than the limits allow (what a client
 * can make a connection buffer); a parsed head, written out again, parses to the same head.
 */
class HeadParserFuzzTest {
    private static final int LINE = 256;
    private static final int FIELDS = 16;
    private static final int FIELD_SIZE = 256;
    private static final long BODY = 1 << 20;
    private static final Set<Integer> STATUSES = Set.of(400, 413, 414, 417, 431, 501, 505);
    /** Most bytes an unfinished head may occupy: leading CRLFs, the request line, full fields, a partial field. */
    private static final int MAX_BUFFERED = 2 * HeadScanner.MAX_LEADING_EMPTY_LINES + (LINE + 2)
            + FIELDS * (FIELD_SIZE + 2) + FIELD_SIZE + 1;

    private final RequestHeadParser parser = new RequestHeadParser(LINE, FIELDS, FIELD_SIZE, BODY);

    @FuzzTest(maxDuration = "10m")
    void head(byte[] input) {
        Outcome whole = run(input, input.length);
        Outcome byteByByte = run(input, 1);
        assertEquals(whole, byteByByte, "incremental scan disagrees with the whole scan");
        if (whole.status == 0 && whole.head == null) {
            assertTrue(input.length <= MAX_BUFFERED, "an unfinished head buffered " + input.length + " bytes");
        }
        if (whole.head != null) {
            RequestHead again = parseWhole(serialize(whole.head));
            assertEquals(describe(whole.head), describe(again), "a parsed head written out parses differently");
        }
    }

    /** Feeds {@code input} to a scanner {@code step} bytes at a time, then parses the head found. */
    private Outcome run(byte[] input, int step) {
        HeadScanner scanner = new HeadScanner(LINE, FIELDS, FIELD_SIZE);
        try {
            int end = -1;
            for (int have = Math.min(step, input.length); end < 0; have = Math.min(have + step, input.length)) {
                end = scanner.scan(input, 0, have);
                if (have == input.length) {
                    break;
                }
            }
            if (end < 0) {
                return new Outcome(0, null, -1);
            }
            return new Outcome(0, parser.parse(input, scanner.requestLineStart(), end), end);
        } catch (HttpException e) {
            assertTrue(STATUSES.contains(e.status()), "undocumented status " + e.status() + ": " + e.getMessage());
            return new Outcome(e.status(), null, -1);
        }
    }

    private RequestHead parseWhole(byte[] head) {
        HeadScanner scanner = new HeadScanner(LINE, FIELDS, FIELD_SIZE);
        int end = scanner.scan(head, 0, head.length);
        assertEquals(head.length, end, "a written-out head is not one whole head");
        return parser.parse(head, scanner.requestLineStart(), end);
    }

    private static byte[] serialize(RequestHead h) {
        StringBuilder sb = new StringBuilder();
        sb.append(h.method()).append(' ').append(h.rawTarget()).append(' ').append(h.versionAsSent()).append("\r\n");
        Headers fields = h.headers();
        for (int i = 0; i < fields.size(); i++) {
            sb.append(fields.name(i)).append(':').append(fields.value(i)).append("\r\n");
        }
        return sb.append("\r\n").toString().getBytes(StandardCharsets.ISO_8859_1);
    }

    /** Everything a handler sees of a head, as one comparable string. */
    private static String describe(RequestHead h) {
        return h.method() + '|' + h.rawTarget() + '|' + h.path() + '|' + h.query() + '|' + h.version() + '|'
                + h.versionAsSent() + '|'
                + h.headers() + '|' + h.contentLength() + '|' + h.chunked() + '|' + h.keepAlive() + '|'
                + h.expectContinue() + '|' + h.host();
    }

    /** A run's result: a status (0 when none), the parsed head's description, the head's end. */
    private record Outcome(int status, RequestHead head, int end) {
        @Override
        public boolean equals(Object o) {
            return o instanceof Outcome other && status == other.status && end == other.end
                    && (head == null ? other.head == null : other.head != null && describe(head).equals(describe(other.head)));
        }

        @Override
        public int hashCode() {
            return status;
        }
    }
}
