package org.loommpm.http1;

import java.nio.charset.StandardCharsets;
import org.loommpm.api.Headers;
import org.loommpm.api.HttpException;
import org.loommpm.http.syntax.HttpChars;

/**
 * Byte classes and the field-line grammar (RFC 9110 §5, RFC 9112 §5) shared by the head parser
 * and the chunked decoder's trailer section, so that headers and trailers obey one set of rules
 * ({@code tchar} and hex digits come from {@link HttpChars}).
 */
final class Http1Syntax {
    static final byte CR = '\r';
    static final byte LF = '\n';

    private Http1Syntax() {
    }

    /** A control character other than HTAB: never allowed in a head (CR included, so bare CR fails). */
    static boolean isCtl(int unsignedByte) {
        return (unsignedByte < 0x20 && unsignedByte != '\t') || unsignedByte == 0x7F;
    }

    /** Optional whitespace (SP / HTAB). */
    static boolean isOws(int c) {
        return c == ' ' || c == '\t';
    }

    /** Bytes {@code [from, to)} as ISO-8859-1 text, the charset of field values' obs-text. */
    static String latin1(byte[] buf, int from, int to) {
        return new String(buf, from, to - from, StandardCharsets.ISO_8859_1);
    }

    /**
     * Validates one field line {@code [from, to)} (line ending already removed) and adds it to
     * {@code into}: {@code token ":" OWS value OWS}, with no obs-fold, no whitespace before the
     * colon and no control character except HTAB.
     *
     * @throws HttpException 400 when the line is malformed
     */
    static void parseFieldLine(byte[] buf, int from, int to, Headers into) {
        parseFieldLine(buf, from, to, into, null);
    }

    /**
     * As {@link #parseFieldLine(byte[], int, int, Headers)}; with {@code recent} (from
     * {@link #recentValues()}), the value of a common field is the String remembered there when
     * its bytes are the same, else a new one that is remembered.
     */
    static void parseFieldLine(byte[] buf, int from, int to, Headers into, String[] recent) {
        if (isOws(buf[from])) {
            throw bad("obs-fold or whitespace at the start of a field line");
        }
        int colon = from;
        while (colon < to && HttpChars.isTchar(buf[colon])) {
            colon++;
        }
        if (colon == to || buf[colon] != ':') {
            throw bad(colon < to && isOws(buf[colon])
                    ? "whitespace between field name and colon" : "malformed field name");
        }
        if (colon == from) {
            throw bad("empty field name");
        }
        int vs = colon + 1;
        int ve = to;
        while (vs < ve && isOws(buf[vs])) {
            vs++;
        }
        while (ve > vs && isOws(buf[ve - 1])) {
            ve--;
        }
        for (int i = vs; i < ve; i++) {
            if (isCtl(buf[i] & 0xFF)) {
                throw bad("control character in field value");
            }
        }
        int known = commonName(buf, from, colon);
        if (known < 0) {
            into.add(latin1(buf, from, colon), latin1(buf, vs, ve));
            return;
        }
        String value;
        String last = recent == null ? null : recent[known];
        if (last != null && last.length() == ve - vs && regionEquals(buf, vs, last)) {
            value = last;
        } else {
            value = latin1(buf, vs, ve);
            if (recent != null) {
                recent[known] = value;
            }
        }
        into.add(COMMON_NAMES[known], value);
    }

    /** A cache for {@link #parseFieldLine(byte[], int, int, Headers, String[])}: one slot per common name. */
    static String[] recentValues() {
        return new String[COMMON_NAMES.length];
    }

    /**
     * Field names browsers and tools send in this spelling, returned as these constants rather
     * than as new strings (most of a typical head's names); their values may be remembered
     * between requests ({@link #recentValues()}).
     */
    private static final String[] COMMON_NAMES = {"Host", "Accept", "Cookie", "Origin", "Referer", "Priority",
        "Connection", "User-Agent", "Content-Type", "Authorization", "Cache-Control", "Content-Length",
        "Accept-Encoding", "Accept-Language", "If-None-Match", "Sec-Fetch-Dest", "Sec-Fetch-Mode",
        "Sec-Fetch-Site", "Sec-Fetch-User", "X-Forwarded-For", "If-Modified-Since", "Upgrade-Insecure-Requests"};

    /** The index in {@link #COMMON_NAMES} of the field name {@code [from, to)}, or -1. */
    private static int commonName(byte[] buf, int from, int to) {
        int len = to - from;
        for (int i = 0; i < COMMON_NAMES.length; i++) {
            String name = COMMON_NAMES[i];
            if (name.length() == len && regionEquals(buf, from, name)) {
                return i;
            }
        }
        return -1;
    }

    /** Whether the bytes at {@code from} spell {@code ascii}, case included (the caller checked the room). */
    static boolean regionEquals(byte[] buf, int from, String ascii) {
        for (int i = 0; i < ascii.length(); i++) {
            if (buf[from + i] != ascii.charAt(i)) {
                return false;
            }
        }
        return true;
    }

    /** A 400 with a log message. */
    static HttpException bad(String why) {
        return new HttpException(400, why);
    }
}
