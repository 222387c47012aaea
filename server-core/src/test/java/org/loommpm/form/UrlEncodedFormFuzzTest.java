package org.loommpm.form;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.code_intelligence.jazzer.api.FuzzedDataProvider;
import com.code_intelligence.jazzer.junit.FuzzTest;
import java.io.ByteArrayInputStream;
import java.io.FilterInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.Map;

/**
 * Fuzzes {@link UrlEncodedForm}, the {@code application/x-www-form-urlencoded} decoder. Without
 * {@code JAZZER_FUZZ} it replays {@code UrlEncodedFormFuzzTestInputs/} (docs/fuzzing.md).
 *
 * <p>{@link #decode}: arbitrary bytes as a body. The only failure is a {@link FormException} whose
 * status and log id agree (400 LM2700, 413 LM2701/LM2702, 415 LM2704) and whose message holds no
 * control character (it goes into a log line); a body over the byte limit is always LM2701; a
 * decoded form has at most the field limit; the body read a byte at a time decodes the same; and
 * a decoded form encoded again decodes to the same form (names, values, order).
 *
 * <p>{@link #roundTrip}: any form encoded as a browser would decodes to itself.
 */
class UrlEncodedFormFuzzTest {
    private static final int MAX_BYTES = 2048;
    private static final int MAX_FIELDS = 32;
    private static final Map<String, Integer> IDS = Map.of("LM2700", 400, "LM2701", 413, "LM2702", 413, "LM2704", 415);

    @FuzzTest(maxDuration = "10m")
    void decode(byte[] input) throws IOException {
        FormData utf8 = decodeOrFail(new ByteArrayInputStream(input), true);
        FormData trickled = decodeOrFail(oneByteAtATime(input), true);
        assertEquals(utf8, trickled, "the same body read a byte at a time");
        if (input.length > MAX_BYTES) {
            assertEquals(null, utf8, "a body over the limit was decoded");
        }
        // The charset from the body's own _charset_ field: only the documented failures either way.
        FormData named = decodeOrFail(new ByteArrayInputStream(input), false);
        if (utf8 == null) {
            return;
        }
        assertTrue(utf8.size() <= MAX_FIELDS, "more fields than the limit: " + utf8.size());
        if (!utf8.contains(UrlEncodedForm.CHARSET_FIELD)) {
            assertEquals(utf8, named, "without a _charset_ field the default is UTF-8");
        }
        String wire = UrlEncodedForm.encode(utf8, StandardCharsets.UTF_8);
        assertTrue(wire.chars().allMatch(c -> c > 0x20 && c < 0x7f), "the encoding is printable ASCII: " + wire);
        FormData again = UrlEncodedForm.decode(wire.getBytes(StandardCharsets.US_ASCII), 0, wire.length(),
                StandardCharsets.UTF_8, MAX_FIELDS);
        assertEquals(utf8, again, "encoded and decoded again");
    }

    @FuzzTest(maxDuration = "10m")
    void roundTrip(FuzzedDataProvider data) {
        FormData.Builder b = FormData.builder();
        for (int i = data.consumeInt(0, MAX_FIELDS); i > 0; i--) {
            b.add(valid(data.consumeString(30)), valid(data.consumeString(60)));
        }
        FormData form = b.build();
        String wire = UrlEncodedForm.encode(form, StandardCharsets.UTF_8);
        byte[] bytes = wire.getBytes(StandardCharsets.US_ASCII);
        FormData back = UrlEncodedForm.decode(bytes, 0, bytes.length, StandardCharsets.UTF_8, MAX_FIELDS);
        assertEquals(form, back);
    }

    /** What UTF-8 can carry of {@code s}: an unpaired surrogate becomes '?' when encoded. */
    private static String valid(String s) {
        return new String(s.getBytes(StandardCharsets.UTF_8), StandardCharsets.UTF_8);
    }

    /** The form, or null after a documented failure. */
    private static FormData decodeOrFail(InputStream in, boolean utf8) throws IOException {
        try {
            return UrlEncodedForm.decode(in, utf8 ? StandardCharsets.UTF_8 : null, MAX_BYTES, MAX_FIELDS);
        } catch (FormException e) {
            String id = e.getMessage().substring(0, 6);
            assertEquals(IDS.get(id), e.status(), "status and log id disagree: " + e.getMessage());
            assertTrue(e.getMessage().chars().noneMatch(c -> c < 0x20 || c == 0x7f), "a control character: " + e.getMessage());
            return null;
        }
    }

    private static InputStream oneByteAtATime(byte[] input) {
        return new FilterInputStream(new ByteArrayInputStream(input)) {
            @Override
            public int read(byte[] b, int off, int len) throws IOException {
                return super.read(b, off, Math.min(len, 1));
            }
        };
    }
}
