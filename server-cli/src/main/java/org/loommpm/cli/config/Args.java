package org.loommpm.cli.config;

import java.time.Duration;
import java.util.Locale;

/**
 * Typed readers for directive arguments. Each names the directive in its error, and a value out
 * of range is an error: nothing is silently clamped here (directives that clamp like httpd do it
 * themselves, with a warning).
 */
public final class Args {
    private Args() {
    }

    /** A whole number in {@code [min, max]}. */
    public static long integer(ConfigLine line, String arg, long min, long max) throws ConfigException {
        long v;
        try {
            v = Long.parseLong(arg);
        } catch (NumberFormatException e) {
            throw line.error(line.name() + " takes a whole number, got '" + arg + "'");
        }
        if (v < min || v > max) {
            throw line.error(line.name() + " must be " + range(min, max) + ", got " + v);
        }
        return v;
    }

    /** The first argument as an int in {@code [min, max]}. */
    public static int intArg(ConfigLine line, int min, int max) throws ConfigException {
        return (int) integer(line, line.args().get(0), min, max);
    }

    private static String range(long min, long max) {
        if (max == Long.MAX_VALUE || max == Integer.MAX_VALUE) {
            return "at least " + min;
        }
        return "between " + min + " and " + max;
    }

    /** {@code On} or {@code Off}, case-insensitive. */
    public static boolean onOff(ConfigLine line) throws ConfigException {
        String a = line.args().get(0);
        if (a.equalsIgnoreCase("on")) {
            return true;
        }
        if (a.equalsIgnoreCase("off")) {
            return false;
        }
        throw line.error(line.name() + " must be On or Off, got '" + a + "'");
    }

    /**
     * A duration as httpd writes timeouts: a whole number with an optional unit {@code ms},
     * {@code s} (the default), {@code mi} or {@code hr}.
     *
     * @param allowZero whether 0 is a valid value
     */
    public static Duration duration(ConfigLine line, String arg, boolean allowZero) throws ConfigException {
        String a = arg.toLowerCase(Locale.ROOT);
        int i = 0;
        while (i < a.length() && Character.isDigit(a.charAt(i))) {
            i++;
        }
        String unit = a.substring(i);
        long n;
        try {
            n = i == 0 ? -1 : Long.parseLong(a.substring(0, i));
        } catch (NumberFormatException e) {
            n = -1;
        }
        if (n < 0 || n > 1_000_000_000L) {
            throw line.error(line.name() + " takes a duration (e.g. 5, 500ms, 2mi), got '" + arg + "'");
        }
        Duration d = switch (unit) {
            case "", "s" -> Duration.ofSeconds(n);
            case "ms" -> Duration.ofMillis(n);
            case "mi" -> Duration.ofMinutes(n);
            case "hr" -> Duration.ofHours(n);
            default -> throw line.error(line.name() + ": unknown time unit '" + unit + "' (use ms, s, mi or hr)");
        };
        if (d.isZero() && !allowZero) {
            throw line.error(line.name() + " must be greater than 0");
        }
        return d;
    }
}
