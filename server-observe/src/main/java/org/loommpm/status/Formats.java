package org.loommpm.status;

import java.math.BigDecimal;
import java.math.MathContext;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.Locale;

/** Text helpers shared by the status renderings: escaping and httpd's number and time formats. */
final class Formats {
    /** httpd's default time format ({@code %A, %d-%b-%Y %H:%M:%S %Z}), in UTC. */
    private static final DateTimeFormatter HTTPD_TIME =
            DateTimeFormatter.ofPattern("EEEE, dd-MMM-yyyy HH:mm:ss 'UTC'", Locale.ENGLISH).withZone(ZoneOffset.UTC);

    private Formats() {
    }

    /** Escapes text for HTML element content and double-quoted attribute values. */
    static String html(String s) {
        if (s == null) {
            return "";
        }
        StringBuilder b = null;
        for (int i = 0; i < s.length(); i++) {
            char ch = s.charAt(i);
            String rep = switch (ch) {
                case '<' -> "&lt;";
                case '>' -> "&gt;";
                case '&' -> "&amp;";
                case '"' -> "&quot;";
                case '\'' -> "&#39;";
                default -> null;
            };
            if (rep != null || Character.isISOControl(ch)) {
                if (b == null) {
                    b = new StringBuilder(s.length() + 16).append(s, 0, i);
                }
                b.append(rep != null ? rep : "&#xFFFD;");
            } else if (b != null) {
                b.append(ch);
            }
        }
        return b == null ? s : b.toString();
    }

    /** A time as httpd prints it, e.g. {@code Saturday, 22-Nov-2026 16:46:36 UTC}. */
    static String httpdTime(Instant t) {
        return HTTPD_TIME.format(t);
    }

    /** httpd's uptime text, e.g. {@code 1 day 2 hours 3 minutes 4 seconds} (zero units left out). */
    static String uptime(long seconds) {
        long[] n = {seconds / 86400, seconds / 3600 % 24, seconds / 60 % 60, seconds % 60};
        String[] unit = {"day", "hour", "minute", "second"};
        StringBuilder b = new StringBuilder();
        for (int i = 0; i < n.length; i++) {
            if (n[i] > 0) {
                b.append(b.isEmpty() ? "" : " ").append(n[i]).append(' ').append(unit[i]).append(n[i] == 1 ? "" : "s");
            }
        }
        return b.isEmpty() ? "0 seconds" : b.toString();
    }

    /** A rate with six significant digits, plain notation, no trailing zeros (e.g. {@code 0.0813}). */
    static String decimal(double x) {
        if (x == 0 || !Double.isFinite(x)) {
            return "0";
        }
        return new BigDecimal(x).round(new MathContext(6)).stripTrailingZeros().toPlainString();
    }

    /** A byte count for people: {@code 512 B}, {@code 3.4 kB}, {@code 1.2 MB}, {@code 5.0 GB}. */
    static String bytes(double n) {
        if (n < 1024) {
            return decimal(Math.round(n * 10) / 10.0) + " B";
        }
        String[] units = {"kB", "MB", "GB", "TB"};
        double v = n / 1024;
        int u = 0;
        while (v >= 1024 && u < units.length - 1) {
            v /= 1024;
            u++;
        }
        return String.format(Locale.ROOT, "%.1f %s", v, units[u]);
    }
}
