package org.loommpm.cli.expires;

import java.util.Locale;

/**
 * An expiry code of mod_expires: {@code "access plus 1 month 15 days"} (also {@code now},
 * {@code modification}; {@code plus} optional; units years = 365 days, months = 30 days, weeks,
 * days, hours, minutes, seconds, each known by its first letter, months and minutes by two, as
 * httpd reads them) or the short form {@code A3600} / {@code M3600}.
 *
 * @param fromModification whether the base is the file's modification time (else the request's time)
 * @param seconds what is added to the base
 */
public record ExpiresCode(boolean fromModification, long seconds) {
    /**
     * Reads a code.
     *
     * @throws IllegalArgumentException with httpd's message for a bad code
     */
    public static ExpiresCode parse(String code) {
        String c = code.strip();
        if (c.length() > 1 && (c.charAt(0) == 'A' || c.charAt(0) == 'M') && Character.isDigit(c.charAt(1))) {
            return new ExpiresCode(c.charAt(0) == 'M', Long.parseLong(c.substring(1)));
        }
        String[] words = c.isEmpty() ? new String[0] : c.split("\\s+");
        int i = 0;
        String base = i < words.length ? words[i++].toLowerCase(Locale.ROOT) : "";
        boolean modification;
        if (!base.isEmpty() && ("now".startsWith(base.substring(0, 1)) || "access".startsWith(base.substring(0, 1)))) {
            modification = false;
        } else if (!base.isEmpty() && base.charAt(0) == 'm') {
            modification = true;
        } else {
            throw new IllegalArgumentException("bad expires code, unrecognised <base> '" + base + "'");
        }
        if (i < words.length && words[i].toLowerCase(Locale.ROOT).startsWith("p")) {
            i++;
        }
        long total = 0;
        while (i < words.length) {
            String num = words[i++];
            if (!Character.isDigit(num.charAt(0))) {
                throw new IllegalArgumentException("bad expires code, numeric value expected <num> '" + num + "'");
            }
            if (i >= words.length) {
                throw new IllegalArgumentException("bad expires code, missing <type>");
            }
            total += leadingNumber(num) * factor(words[i++].toLowerCase(Locale.ROOT));
        }
        return new ExpiresCode(modification, total);
    }

    private static long leadingNumber(String s) {
        int end = 0;
        while (end < s.length() && end < 10 && Character.isDigit(s.charAt(end))) {
            end++;
        }
        return Long.parseLong(s.substring(0, end));
    }

    private static long factor(String unit) {
        if (unit.startsWith("y")) {
            return 365L * 86_400;
        }
        if (unit.startsWith("mo")) {
            return 30L * 86_400;
        }
        if (unit.startsWith("w")) {
            return 7L * 86_400;
        }
        if (unit.startsWith("d")) {
            return 86_400;
        }
        if (unit.startsWith("h")) {
            return 3_600;
        }
        if (unit.startsWith("mi")) {
            return 60;
        }
        if (unit.startsWith("s")) {
            return 1;
        }
        throw new IllegalArgumentException("bad expires code, unrecognised <type>'" + unit + "'");
    }
}
