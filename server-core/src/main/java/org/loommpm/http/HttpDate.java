package org.loommpm.http;

import java.nio.charset.StandardCharsets;
import java.time.DateTimeException;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.Year;
import java.time.ZoneOffset;
import java.util.List;

/**
 * HTTP dates (RFC 9110 §5.6.7). Every response carries a {@code Date} in IMF-fixdate, which
 * only changes once a second, so the current one is cached in a volatile holder of (second,
 * text): a hot-path call is one volatile read and a compare, and a racing refresh by two threads
 * only computes the same value twice. Parsing also accepts the two obsolete formats recipients
 * must accept (rfc850-date and asctime-date).
 */
public final class HttpDate {
    private static final List<String> DAYS = List.of("Mon", "Tue", "Wed", "Thu", "Fri", "Sat", "Sun");
    private static final List<String> LONG_DAYS =
            List.of("Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday", "Sunday");
    private static final List<String> MONTHS = List.of(
            "Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec");

    /** The IMF-fixdate of one second, as text and as ASCII bytes. */
    private record Stamp(long epochSecond, String text, byte[] bytes) {
    }

    private static volatile Stamp current = stamp(Math.floorDiv(System.currentTimeMillis(), 1000));

    private HttpDate() {
    }

    /** The current time as IMF-fixdate ASCII bytes; shared, so callers must not modify them. */
    public static byte[] nowBytes() {
        return currentStamp().bytes();
    }

    /** The current time as IMF-fixdate, e.g. {@code Sun, 06 Nov 1994 08:49:37 GMT}. */
    public static String now() {
        return currentStamp().text();
    }

    private static Stamp currentStamp() {
        long second = Math.floorDiv(System.currentTimeMillis(), 1000);
        Stamp s = current;
        if (s.epochSecond() != second) {
            s = stamp(second);
            current = s;
        }
        return s;
    }

    private static Stamp stamp(long epochSecond) {
        String text = format(epochSecond * 1000);
        return new Stamp(epochSecond, text, text.getBytes(StandardCharsets.US_ASCII));
    }

    /**
     * Formats an instant as IMF-fixdate (milliseconds are dropped).
     *
     * @throws IllegalArgumentException outside the years 0000-9999 the format can express
     */
    public static String format(long epochMillis) {
        long second = Math.floorDiv(epochMillis, 1000);
        LocalDateTime t = LocalDateTime.ofEpochSecond(second, 0, ZoneOffset.UTC);
        if (t.getYear() < 0 || t.getYear() > 9999) {
            throw new IllegalArgumentException("year out of IMF-fixdate range: " + t.getYear());
        }
        // The weekday from the day number (1970-01-01 was a Thursday), not getDayOfWeek(): that
        // initializes java.time.Year, whose date parser costs the first response ~80 classes.
        int day = (int) Math.floorMod(Math.floorDiv(second, 86_400) + 3, 7);
        StringBuilder sb = new StringBuilder(29).append(DAYS.get(day)).append(", ");
        pad(sb, t.getDayOfMonth(), 2).append(' ').append(MONTHS.get(t.getMonthValue() - 1)).append(' ');
        pad(sb, t.getYear(), 4).append(' ');
        pad(sb, t.getHour(), 2).append(':');
        pad(sb, t.getMinute(), 2).append(':');
        return pad(sb, t.getSecond(), 2).append(" GMT").toString();
    }

    private static StringBuilder pad(StringBuilder sb, int value, int width) {
        String digits = Integer.toString(value);
        for (int i = digits.length(); i < width; i++) {
            sb.append('0');
        }
        return sb.append(digits);
    }

    /**
     * Parses an HTTP date in IMF-fixdate, rfc850-date or asctime-date format (case-sensitive,
     * as specified; the day name must be valid but is not checked against the date).
     *
     * @return milliseconds since the epoch, or -1 when {@code s} is not an HTTP date
     */
    public static long parse(String s) {
        if (s == null) {
            return -1;
        }
        try {
            int comma = s.indexOf(',');
            if (comma == 3) {
                return imfFixdate(s);
            }
            return comma > 3 ? rfc850Date(s, comma) : asctimeDate(s);
        } catch (DateTimeException e) {
            return -1;
        }
    }

    /** {@code Sun, 06 Nov 1994 08:49:37 GMT}. */
    private static long imfFixdate(String s) {
        if (s.length() != 29 || !DAYS.contains(s.substring(0, 3)) || !s.startsWith(", ", 3)
                || s.charAt(7) != ' ' || s.charAt(11) != ' ' || s.charAt(16) != ' '
                || !s.startsWith(" GMT", 25)) {
            return -1;
        }
        return epochMillis(number(s, 12, 4), month(s, 8), number(s, 5, 2), s, 17);
    }

    /** {@code Sunday, 06-Nov-94 08:49:37 GMT}. */
    private static long rfc850Date(String s, int comma) {
        int p = comma + 2;
        if (s.length() != p + 22 || !LONG_DAYS.contains(s.substring(0, comma)) || s.charAt(comma + 1) != ' '
                || s.charAt(p + 2) != '-' || s.charAt(p + 6) != '-' || s.charAt(p + 9) != ' '
                || !s.startsWith(" GMT", p + 18)) {
            return -1;
        }
        int yy = number(s, p + 7, 2);
        if (yy < 0) {
            return -1;
        }
        // RFC 9110 §5.6.7: a year more than 50 years ahead is the last such year in the past.
        int thisYear = Year.now(ZoneOffset.UTC).getValue();
        int year = thisYear / 100 * 100 + yy;
        if (year > thisYear + 50) {
            year -= 100;
        }
        return epochMillis(year, month(s, p + 3), number(s, p, 2), s, p + 10);
    }

    /** {@code Sun Nov  6 08:49:37 1994}. */
    private static long asctimeDate(String s) {
        if (s.length() != 24 || !DAYS.contains(s.substring(0, 3)) || s.charAt(3) != ' '
                || s.charAt(7) != ' ' || s.charAt(10) != ' ' || s.charAt(19) != ' ') {
            return -1;
        }
        int day = s.charAt(8) == ' ' ? number(s, 9, 1) : number(s, 8, 2);
        return epochMillis(number(s, 20, 4), month(s, 4), day, s, 11);
    }

    /** Combines a date with the {@code HH:MM:SS} at {@code timeAt}; -1 if any part is invalid. */
    private static long epochMillis(int year, int month, int day, String s, int timeAt) {
        int hour = number(s, timeAt, 2);
        int minute = number(s, timeAt + 3, 2);
        int second = number(s, timeAt + 6, 2);
        if (year < 0 || month < 0 || day < 0 || hour < 0 || minute < 0 || second < 0
                || s.charAt(timeAt + 2) != ':' || s.charAt(timeAt + 5) != ':'
                || hour > 23 || minute > 59 || second > 60) {
            return -1;
        }
        long epochDay = LocalDate.of(year, month, day).toEpochDay();
        return ((epochDay * 24 + hour) * 60 + minute) * 60_000 + second * 1000L;
    }

    /** Month 1-12 of the three-letter name at {@code at}, or -1. */
    private static int month(String s, int at) {
        int i = MONTHS.indexOf(s.substring(at, at + 3));
        return i < 0 ? -1 : i + 1;
    }

    /** The unsigned decimal of {@code len} digits at {@code at}, or -1. */
    private static int number(String s, int at, int len) {
        int n = 0;
        for (int i = at; i < at + len; i++) {
            char c = s.charAt(i);
            if (c < '0' || c > '9') {
                return -1;
            }
            n = n * 10 + (c - '0');
        }
        return n;
    }
}
