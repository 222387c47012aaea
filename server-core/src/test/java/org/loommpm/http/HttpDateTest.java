package org.loommpm.http;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.ZonedDateTime;
import java.time.format.DateTimeFormatter;
import java.util.Locale;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.NullAndEmptySource;
import org.junit.jupiter.params.provider.ValueSource;

class HttpDateTest {
    /** RFC 9110's example instant, Sun, 06 Nov 1994 08:49:37 GMT. */
    private static final long EXAMPLE = 784111777000L;

    @Test
    void formatsImfFixdate() {
        assertEquals("Sun, 06 Nov 1994 08:49:37 GMT", HttpDate.format(EXAMPLE));
        assertEquals("Sun, 06 Nov 1994 08:49:37 GMT", HttpDate.format(EXAMPLE + 999));
        assertEquals("Thu, 01 Jan 1970 00:00:00 GMT", HttpDate.format(0));
        assertEquals("Wed, 31 Dec 1969 23:59:59 GMT", HttpDate.format(-1));
        assertEquals("Tue, 29 Feb 2000 12:05:09 GMT", HttpDate.format(951825909000L));
        assertEquals("Fri, 31 Dec 9999 23:59:59 GMT", HttpDate.format(253402300799000L));
        assertThrows(IllegalArgumentException.class, () -> HttpDate.format(253402300800000L));
    }

    @ParameterizedTest
    @ValueSource(strings = {
        "Sun, 06 Nov 1994 08:49:37 GMT",
        "Sunday, 06-Nov-94 08:49:37 GMT",
        "Sun Nov  6 08:49:37 1994",
        "Sun Nov 06 08:49:37 1994",
        "Mon, 06 Nov 1994 08:49:37 GMT",
    })
    void parsesTheThreeFormats(String date) {
        assertEquals(EXAMPLE, HttpDate.parse(date));
    }

    @ParameterizedTest
    @CsvSource(delimiter = '|', value = {
        "Thu, 01 Jan 1970 00:00:00 GMT | 0",
        "Wed, 31 Dec 1969 23:59:59 GMT | -1000",
        "Tue, 29 Feb 2000 12:05:09 GMT | 951825909000",
        "Tue, 30 Jun 2015 23:59:60 GMT | 1435708800000",
        "Thu Jan  1 00:00:00 1970 | 0",
    })
    void parsesKnownInstants(String date, long millis) {
        assertEquals(millis, HttpDate.parse(date));
    }

    @Test
    void readsATwoDigitYearAsAtMostFiftyYearsAhead() {
        int thisYear = ZonedDateTime.now(ZoneOffset.UTC).getYear();
        int soon = (thisYear + 10) % 100;
        int farAhead = (thisYear + 60) % 100;
        assertEquals(thisYear + 10, yearOf(HttpDate.parse(String.format("Monday, 01-Jan-%02d 00:00:00 GMT", soon))));
        assertEquals(thisYear + 60 - 100,
                yearOf(HttpDate.parse(String.format("Monday, 01-Jan-%02d 00:00:00 GMT", farAhead))));
    }

    private static int yearOf(long millis) {
        return ZonedDateTime.ofInstant(Instant.ofEpochMilli(millis), ZoneOffset.UTC).getYear();
    }

    @ParameterizedTest
    @NullAndEmptySource
    @ValueSource(strings = {
        "Sun, 06 Nov 1994 08:49:37 UTC",
        "Sun, 06 Nov 1994 08:49:37 gmt",
        "sun, 06 Nov 1994 08:49:37 GMT",
        "Sun, 06 nov 1994 08:49:37 GMT",
        "Sun, 6 Nov 1994 08:49:37 GMT",
        "Sun, 06 Nov 94 08:49:37 GMT",
        "Sun, 06 Nov 1994 8:49:37 GMT",
        "Sun, 06 Nov 1994 08:49:37 GMT ",
        " Sun, 06 Nov 1994 08:49:37 GMT",
        "Sun, 06 Nov 1994 08-49-37 GMT",
        "Sun, 06 Nov 1994 24:00:00 GMT",
        "Sun, 06 Nov 1994 08:60:00 GMT",
        "Sun, 06 Nov 1994 08:49:61 GMT",
        "Sun, 30 Feb 1994 08:49:37 GMT",
        "Sun, 00 Nov 1994 08:49:37 GMT",
        "Xyz, 06 Nov 1994 08:49:37 GMT",
        "Sun, 06 Xyz 1994 08:49:37 GMT",
        "Sun, +6 Nov 1994 08:49:37 GMT",
        "Sunday, 06-Nov-1994 08:49:37 GMT",
        "Sunday, 06 Nov 94 08:49:37 GMT",
        "Sun, 06-Nov-94 08:49:37 GMT",
        "Funday, 06-Nov-94 08:49:37 GMT",
        "Sun Nov 6 08:49:37 1994",
        "Sun Nov  6 08:49:37 94",
        "Sun Nov  6 08:49:37 1994 GMT",
        "Sun  Nov 6 08:49:37 1994",
        "1994-11-06T08:49:37Z",
        "784111777",
    })
    void rejectsAnythingElse(String date) {
        assertEquals(-1, HttpDate.parse(date));
    }

    @Test
    void roundTrips() {
        SplittableRandom random = new SplittableRandom(42);
        DateTimeFormatter jdkFormat = DateTimeFormatter.ofPattern("EEE, dd MMM yyyy HH:mm:ss 'GMT'", Locale.US);
        for (int i = 0; i < 10_000; i++) {
            long seconds = random.nextLong(-2_000_000_000L, 253402300799L);
            String text = HttpDate.format(seconds * 1000);
            assertEquals(seconds * 1000, HttpDate.parse(text), text);
            assertEquals(jdkFormat.format(ZonedDateTime.ofInstant(Instant.ofEpochSecond(seconds), ZoneOffset.UTC)), text);
        }
    }

    @Test
    void nowIsCurrentAndCached() {
        long before = System.currentTimeMillis() / 1000 * 1000;
        String now = HttpDate.now();
        long after = System.currentTimeMillis();
        long parsed = HttpDate.parse(now);
        assertTrue(parsed >= before && parsed <= after, now);
        assertTrue(now.matches("[A-Z][a-z]{2}, \\d{2} [A-Z][a-z]{2} \\d{4} \\d{2}:\\d{2}:\\d{2} GMT"), now);
        byte[] bytes = HttpDate.nowBytes();
        String again = HttpDate.now();
        assertTrue(HttpDate.parse(new String(bytes, StandardCharsets.US_ASCII)) >= parsed);
        assertTrue(HttpDate.parse(again) >= parsed);
    }

    @Test
    void nowBytesAreSharedWithinASecond() {
        for (int attempt = 0; attempt < 5; attempt++) {
            long second = System.currentTimeMillis() / 1000;
            byte[] a = HttpDate.nowBytes();
            byte[] b = HttpDate.nowBytes();
            if (System.currentTimeMillis() / 1000 == second) {
                assertTrue(a == b, "the cached array is reused");
                assertArrayEquals(HttpDate.now().getBytes(StandardCharsets.US_ASCII), a);
                return;
            }
        }
    }
}
