package org.loommpm.status;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.Test;

class FormatsTest {
    @Test
    void htmlEscapesMarkupQuotesAndControls() {
        assertEquals("&lt;a href=&quot;x&quot; title=&#39;y&#39;&gt;&amp;&#xFFFD;", Formats.html("<a href=\"x\" title='y'>&\u0007"));
        assertEquals("plain", Formats.html("plain"));
        assertEquals("", Formats.html(null));
    }

    @Test
    void uptimeReadsLikeHttpd() {
        assertEquals("0 seconds", Formats.uptime(0));
        assertEquals("1 second", Formats.uptime(1));
        assertEquals("1 minute 1 second", Formats.uptime(61));
        assertEquals("1 day 2 hours 3 minutes 4 seconds", Formats.uptime(86400 + 7200 + 180 + 4));
        assertEquals("2 days", Formats.uptime(2 * 86400));
    }

    @Test
    void decimalsHaveSixSignificantDigitsAndNoTrailingZeros() {
        assertEquals("0", Formats.decimal(0));
        assertEquals("0.0813008", Formats.decimal(10 / 123.0));
        assertEquals("2.5", Formats.decimal(2.5));
        assertEquals("1234570", Formats.decimal(1234567));
        assertEquals("0", Formats.decimal(Double.NaN));
    }

    @Test
    void timesUseHttpdsFormatInUtc() {
        assertEquals("Sunday, 22-Nov-2026 16:46:36 UTC", Formats.httpdTime(Instant.parse("2026-11-22T16:46:36Z")));
    }

    @Test
    void bytesForPeople() {
        assertEquals("512 B", Formats.bytes(512));
        assertEquals("1.5 kB", Formats.bytes(1536));
        assertEquals("2.0 MB", Formats.bytes(2 * 1024 * 1024));
    }

    @Test
    void refreshIsClampedOrIgnored() {
        assertEquals(0, StatusHandler.refresh(null));
        assertEquals(1, StatusHandler.refresh(List.of("")));
        assertEquals(1, StatusHandler.refresh(List.of("0")));
        assertEquals(10, StatusHandler.refresh(List.of("10")));
        assertEquals(3600, StatusHandler.refresh(List.of("99999999999")));
        assertEquals(0, StatusHandler.refresh(List.of("99999999999999999999")));
        assertEquals(0, StatusHandler.refresh(List.of("x")));
    }

    @Test
    void jsonEscapesQuotesControlsAndMarkup() {
        String out = new JsonWriter().beginObject().field("a", "\"\\\n\u0001<>&").field("n", 3)
                .name("l").beginArray().value(true).value(1.5).endArray().endObject().toString();
        assertEquals("{\"a\":\"\\\"\\\\\\n\\u0001\\u003c\\u003e\\u0026\",\"n\":3,\"l\":[true,1.5]}", out);
    }
}
