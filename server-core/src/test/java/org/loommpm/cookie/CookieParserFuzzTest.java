package org.loommpm.cookie;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.code_intelligence.jazzer.junit.FuzzTest;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * Fuzzes {@link CookieParser} on any field value (the bytes as ISO-8859-1, how an HTTP/1.1 head
 * is read; the first byte chooses the cookie limit). Without {@code JAZZER_FUZZ} it replays
 * {@code CookieParserFuzzTestInputs/parse} (docs/fuzzing.md).
 *
 * <p>Properties: the only failure is {@link CookieException} 431 (LM2750), and only when the
 * field holds more cookies than the limit; every cookie has a non-empty name without control
 * characters, {@code ;}, {@code =} or surrounding whitespace, and a value without control
 * characters or {@code ;}; the cookies that {@link SetCookie} would send, written out again as
 * one field, parse back to the same list.
 */
class CookieParserFuzzTest {
    @FuzzTest(maxDuration = "10m")
    void parse(byte[] input) {
        int max = input.length == 0 ? 1 : 1 + (input[0] & 0xFF);
        String header = new String(input, Math.min(1, input.length), Math.max(0, input.length - 1),
                StandardCharsets.ISO_8859_1);
        List<Cookie> all = CookieParser.parse(header, Integer.MAX_VALUE);
        List<Cookie> cookies;
        try {
            cookies = CookieParser.parse(header, max);
        } catch (CookieException e) {
            assertEquals(431, e.status());
            assertTrue(e.getMessage().startsWith("LM2750 "), e.getMessage());
            assertTrue(all.size() > max, all.size() + " cookies refused with a limit of " + max);
            return;
        }
        assertEquals(all, cookies);
        assertTrue(cookies.size() <= max);
        List<Cookie> sendable = new ArrayList<>();
        StringBuilder again = new StringBuilder();
        for (Cookie c : cookies) {
            String n = c.name();
            String v = c.value();
            assertFalse(n.isEmpty());
            assertFalse(n.indexOf(';') >= 0 || n.indexOf('=') >= 0 || hasControl(n), n);
            assertFalse(n.charAt(0) == ' ' || n.charAt(0) == '\t' || n.endsWith(" ") || n.endsWith("\t"), n);
            assertFalse(v.indexOf(';') >= 0 || hasControl(v), v);
            if (SetCookie.isValidName(n) && SetCookie.isValidValue(v) && !v.startsWith("\"")
                    && n.length() + v.length() <= 4096) {
                sendable.add(c);
                // Secure and Path=/ satisfy any prefix the name may have (__Secure-, __Host-).
                String set = SetCookie.builder(n, v).secure(true).path("/").build().toHeaderValue();
                assertEquals(n + "=" + v + "; Path=/; Secure", set);
                again.append(n).append('=').append(v).append("; ");
            }
        }
        assertEquals(sendable, CookieParser.parse(again.toString(), Integer.MAX_VALUE),
                "re-parsed from " + Arrays.toString(again.toString().getBytes(StandardCharsets.ISO_8859_1)));
    }

    private static boolean hasControl(String s) {
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            if ((c < 0x20 && c != '\t') || c == 0x7F) {
                return true;
            }
        }
        return false;
    }
}
