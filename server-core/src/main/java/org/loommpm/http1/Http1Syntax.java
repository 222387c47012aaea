package org.loommpm.http1;

import java.nio.charset.StandardCharsets;
import org.loommpm.api.Headers;
import org.loommpm.api.HttpException;

/**
 * Byte classes and the field-line grammar (RFC 9110 §5, RFC 9112 §5) shared by the head parser
 * and the chunked decoder's trailer section, so that headers and trailers obey one set of rules.
 */
final class Http1Syntax {
    static final byte CR = '\r';
    static final byte LF = '\n';

    /** {@code tchar} of RFC 9110 §5.6.2, indexed by unsigned byte. */
    private static final boolean[] TCHAR = new boolean[256];

    static {
        for (char c = '0'; c <= '9'; c++) {
            TCHAR[c] = true;
        }
        for (char c = 'a'; c <= 'z'; c++) {
            TCHAR[c] = true;
            TCHAR[c - 32] = true;
        }
        for (char c : "!#$%&'*+-.^_`|~".toCharArray()) {
            TCHAR[c] = true;
        }
    }

    private Http1Syntax() {
    }

    /** Whether the byte is a {@code tchar}. */
    static boolean isTchar(byte b) {
        return TCHAR[b & 0xFF];
    }

    /** Whether the string is a non-empty {@code token}. */
    static boolean isToken(String s) {
        if (s.isEmpty()) {
            return false;
        }
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            if (c > 0xFF || !TCHAR[c]) {
                return false;
            }
        }
        return true;
    }

    /** A control character other than HTAB: never allowed in a head (CR included, so bare CR fails). */
    static boolean isCtl(int unsignedByte) {
        return (unsignedByte < 0x20 && unsignedByte != '\t') || unsignedByte == 0x7F;
    }

    /** Optional whitespace (SP / HTAB). */
    static boolean isOws(int c) {
        return c == ' ' || c == '\t';
    }

    /** Value of a hex digit, or -1. */
    static int hexValue(int c) {
        if (c >= '0' && c <= '9') {
            return c - '0';
        }
        int l = c | 0x20;
        if (l >= 'a' && l <= 'f') {
            return l - 'a' + 10;
        }
        return -1;
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
        if (isOws(buf[from])) {
            throw bad("obs-fold or whitespace at the start of a field line");
        }
        int colon = from;
        while (colon < to && TCHAR[buf[colon] & 0xFF]) {
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
        into.add(latin1(buf, from, colon), latin1(buf, vs, ve));
    }

    /** A 400 with a log message. */
    static HttpException bad(String why) {
        return new HttpException(400, why);
    }
}
