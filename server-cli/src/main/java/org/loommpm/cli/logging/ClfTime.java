package org.loommpm.cli.logging;

import java.nio.charset.StandardCharsets;
import java.time.LocalDateTime;
import java.time.ZoneOffset;
import java.util.TimeZone;

/**
 * {@code %t}: the Common Log Format time, {@code [10/Oct/2000:13:55:36 -0700]}, in the local
 * zone. Cached per second in a volatile holder: every line of the same second reuses the text,
 * and a racing refresh only computes the same text twice.
 */
final class ClfTime {
    private static final String[] MONTHS = {
        "Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"};

    private record Stamp(long second, byte[] bytes) {
    }

    private static volatile Stamp last = new Stamp(Long.MIN_VALUE, new byte[0]);

    private ClfTime() {
    }

    /** The text for the second of {@code epochMillis}, as ASCII bytes (shared: callers only read them). */
    static byte[] bytes(long epochMillis) {
        long second = Math.floorDiv(epochMillis, 1000);
        Stamp s = last;
        if (s.second() != second) {
            s = new Stamp(second, render(second).getBytes(StandardCharsets.US_ASCII));
            last = s;
        }
        return s.bytes();
    }

    static String render(long second) {
        // java.util.TimeZone's offset, not java.time's ZoneId: see ErrorLog.timestamp.
        int offsetMillis = TimeZone.getDefault().getOffset(second * 1000);
        LocalDateTime t = LocalDateTime.ofEpochSecond(second + offsetMillis / 1000, 0, ZoneOffset.UTC);
        StringBuilder sb = new StringBuilder(28).append('[');
        pad(sb, t.getDayOfMonth()).append('/').append(MONTHS[t.getMonthValue() - 1]).append('/')
                .append(t.getYear()).append(':');
        pad(sb, t.getHour()).append(':');
        pad(sb, t.getMinute()).append(':');
        pad(sb, t.getSecond()).append(' ');
        int mins = offsetMillis / 60_000;
        sb.append(mins < 0 ? '-' : '+');
        mins = Math.abs(mins);
        pad(sb, mins / 60);
        pad(sb, mins % 60);
        return sb.append(']').toString();
    }

    static StringBuilder pad(StringBuilder sb, int v) {
        if (v < 10) {
            sb.append('0');
        }
        return sb.append(v);
    }
}
