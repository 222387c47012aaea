package org.loommpm.proxyprotocol;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.code_intelligence.jazzer.junit.FuzzTest;
import java.io.ByteArrayOutputStream;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.Objects;

/**
 * Fuzzes {@link ProxyHeaderParser} (PROXY protocol v1 and v2) as the engine calls it: on the
 * bytes received so far, again after each read. Without {@code JAZZER_FUZZ} it replays
 * {@code ProxyHeaderFuzzTestInputs/header} (docs/fuzzing.md).
 *
 * <p>Properties: the only failure is a {@link ProxyHeaderException}; the answer never changes
 * once given (every longer prefix gives the same header, or fails as well), so reading more can
 * only confirm; "need more bytes" is only ever said below the longest header (a client cannot
 * make the engine buffer more); a header never claims more bytes than it was given; and a header
 * naming TCP addresses, written out again as v1 text and as v2 binary, parses to the same
 * addresses.
 */
class ProxyHeaderFuzzTest {
    @FuzzTest(maxDuration = "10m")
    void header(byte[] input) throws Exception {
        String decided = null;
        int decidedAt = -1;
        for (int n = 0; n <= input.length; n++) {
            String now = outcome(input, n);
            if (decided != null) {
                assertEquals(decided, now, "the answer changed from " + decidedAt + " to " + n + " bytes");
            } else if (!now.equals("more")) {
                decided = now;
                decidedAt = n;
            } else {
                assertTrue(n < ProxyHeaderParser.MAX_V2, "still undecided after " + n + " bytes");
            }
        }
        ProxyHeader h = decided == null || decided.startsWith("error") ? null
                : ProxyHeaderParser.parse(input, 0, input.length);
        if (h == null) {
            return;
        }
        assertTrue(h.length() > 0 && h.length() <= input.length, "header length " + h.length());
        if (h.hasSource()) {
            for (byte[] again : new byte[][] {v1(h), v2(h)}) {
                ProxyHeader back = ProxyHeaderParser.parse(again, 0, again.length);
                assertEquals(h.family(), back.family());
                assertEquals(h.source(), back.source());
                assertEquals(h.destination(), back.destination());
                assertEquals(again.length, back.length());
            }
        }
    }

    /** The parse of the first {@code n} bytes, as comparable text: the header, "more" or "error". */
    private static String outcome(byte[] input, int n) {
        try {
            ProxyHeader h = ProxyHeaderParser.parse(input, 0, n);
            return h == null ? "more" : h.toString();
        } catch (ProxyHeaderException e) {
            return "error";
        }
    }

    private static byte[] v1(ProxyHeader h) {
        String line = "PROXY " + h.family() + " " + literal(h.source()) + " " + literal(h.destination()) + " "
                + h.source().getPort() + " " + h.destination().getPort() + "\r\n";
        return line.getBytes(StandardCharsets.US_ASCII);
    }

    private static String literal(InetSocketAddress a) {
        String s = Objects.requireNonNull(a.getAddress()).getHostAddress();
        int zone = s.indexOf('%');
        return zone < 0 ? s : s.substring(0, zone);
    }

    private static byte[] v2(ProxyHeader h) {
        byte[] src = h.source().getAddress().getAddress();
        byte[] dst = h.destination().getAddress().getAddress();
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        out.writeBytes(new byte[] {0x0D, 0x0A, 0x0D, 0x0A, 0x00, 0x0D, 0x0A, 0x51, 0x55, 0x49, 0x54, 0x0A});
        out.write(0x21); // version 2, PROXY
        out.write(src.length == 4 ? 0x11 : 0x21); // INET or INET6, STREAM
        int len = 2 * src.length + 4;
        out.write(len >> 8);
        out.write(len);
        out.writeBytes(src);
        out.writeBytes(dst);
        out.write(h.source().getPort() >> 8);
        out.write(h.source().getPort());
        out.write(h.destination().getPort() >> 8);
        out.write(h.destination().getPort());
        return out.toByteArray();
    }
}
