package org.loommpm.cookie;

import java.util.ArrayList;
import java.util.List;

/**
 * Reads a request's {@code Cookie} field (RFC 6265bis §5.7: {@code name=value} pairs separated
 * by {@code ;}) as browsers send it, which is looser than the grammar of RFC 6265bis §4.2.1:
 * browsers keep cookies whose names and values stray outside it, and send them back. So a pair is
 * kept when it can be read unambiguously and skipped otherwise, the rest of the field still read:
 *
 * <ul>
 *   <li>whitespace (SP, HTAB) around a pair, its name and its value is ignored;</li>
 *   <li>a pair without {@code =}, or with an empty name, is skipped (a browser sends a cookie set
 *       without a name as its bare value: it cannot be asked for by name);</li>
 *   <li>a pair whose name or value holds a control character (other than HTAB) is skipped, as
 *       browsers refuse to store such a cookie;</li>
 *   <li>a value in double quotes loses them ({@code a="b"} is {@code b}); nothing else is
 *       decoded;</li>
 *   <li>every pair is kept in the order sent, names repeated included (a browser sends the
 *       cookie with the longer path first).</li>
 * </ul>
 *
 * <p>More than {@code maxCookies} cookies is refused with {@link CookieException} 431 (the field's
 * size itself is bounded by the server's head limits before this runs).
 */
public final class CookieParser {
    /** The number of cookies {@code Request.cookies()} accepts in one request: more is answered 431. */
    public static final int DEFAULT_MAX_COOKIES = 200;

    private CookieParser() {
    }

    /**
     * Parses one {@code Cookie} field value (or several joined with {@code "; "}, as HTTP/2's
     * cookie crumbs are).
     *
     * @param header the field value; {@code null} or empty gives no cookies
     * @param maxCookies the most cookies accepted (at least 1)
     * @return the cookies in the order sent (unmodifiable)
     * @throws CookieException 431 when the field holds more than {@code maxCookies} cookies
     * @throws IllegalArgumentException if {@code maxCookies} is less than 1
     */
    public static List<Cookie> parse(String header, int maxCookies) {
        if (maxCookies < 1) {
            throw new IllegalArgumentException("maxCookies must be at least 1: " + maxCookies);
        }
        if (header == null || header.isEmpty()) {
            return List.of();
        }
        List<Cookie> cookies = new ArrayList<>();
        int len = header.length();
        int start = 0;
        while (start < len) {
            int end = header.indexOf(';', start);
            if (end < 0) {
                end = len;
            }
            Cookie c = pair(header, start, end);
            if (c != null) {
                if (cookies.size() == maxCookies) {
                    throw new CookieException(431, "LM2750 Cookie header with more than " + maxCookies + " cookies");
                }
                cookies.add(c);
            }
            start = end + 1;
        }
        return List.copyOf(cookies);
    }

    /** The cookie in {@code s[from, to)}, or {@code null} when the pair is skipped. */
    private static Cookie pair(String s, int from, int to) {
        int eq = s.indexOf('=', from);
        if (eq < 0 || eq >= to) {
            return null;
        }
        int nameStart = skipSpace(s, from, eq);
        int nameEnd = trimSpace(s, nameStart, eq);
        if (nameStart == nameEnd || hasControl(s, nameStart, nameEnd)) {
            return null;
        }
        int valueStart = skipSpace(s, eq + 1, to);
        int valueEnd = trimSpace(s, valueStart, to);
        if (valueEnd - valueStart >= 2 && s.charAt(valueStart) == '"' && s.charAt(valueEnd - 1) == '"') {
            valueStart++;
            valueEnd--;
        }
        if (hasControl(s, valueStart, valueEnd)) {
            return null;
        }
        return new Cookie(s.substring(nameStart, nameEnd), s.substring(valueStart, valueEnd));
    }

    private static int skipSpace(String s, int from, int to) {
        while (from < to && isSpace(s.charAt(from))) {
            from++;
        }
        return from;
    }

    private static int trimSpace(String s, int from, int to) {
        while (to > from && isSpace(s.charAt(to - 1))) {
            to--;
        }
        return to;
    }

    private static boolean isSpace(char c) {
        return c == ' ' || c == '\t';
    }

    /** RFC 6265bis §5.6: a cookie holding %x00-08, %x0A-1F or %x7F is ignored. */
    private static boolean hasControl(String s, int from, int to) {
        for (int i = from; i < to; i++) {
            char c = s.charAt(i);
            if ((c < 0x20 && c != '\t') || c == 0x7F) {
                return true;
            }
        }
        return false;
    }
}
