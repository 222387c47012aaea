package org.loommpm.proxy;

import org.loommpm.api.Headers;
import org.loommpm.http.syntax.HttpChars;

/**
 * A backend's response head, parsed strictly (RFC 9112): a status line {@code HTTP/1.x NNN
 * reason}, then fields whose names are tokens and whose values hold no control characters.
 * Obsolete line folding, a bad Content-Length or conflicting ones are refused as
 * {@link BackendProtocolException} (the client gets 502): a proxy that guessed would open the
 * door to response splitting.
 *
 * @param http11 whether the backend speaks HTTP/1.1 (else 1.0: no keep-alive reuse)
 * @param status the status code
 * @param reason the reason phrase (may be empty)
 * @param headers the fields as received
 * @param length the {@code Content-Length} as parsed with the head: the value, {@link #NO_LENGTH}
 *     when absent, {@link #BAD_LENGTH} when malformed or conflicting (refused only when the framing
 *     needs it: {@link #contentLength})
 */
record ResponseHead(boolean http11, int status, String reason, Headers headers, long length) {
    /** {@link #length} when there is no {@code Content-Length}. */
    static final long NO_LENGTH = -1;
    /** {@link #length} when a {@code Content-Length} is malformed or the values conflict. */
    static final long BAD_LENGTH = -2;

    /** How the body that follows is delimited. */
    enum Framing {
        /** No body (1xx, 204, 304, or the answer to HEAD). */
        NONE,
        /** {@code Content-Length} bytes. */
        LENGTH,
        /** Chunked transfer coding. */
        CHUNKED,
        /** Until the backend closes the connection. */
        CLOSE
    }

    /**
     * Parses the head in {@code b[from, end)} (it ends with its empty line), straight from the
     * bytes: one string per reason phrase, field name and value, none per line.
     */
    static ResponseHead parse(byte[] b, int from, int end) throws BackendProtocolException {
        return parse(b, from, end, new RecentFields());
    }

    /**
     * As {@link #parse(byte[], int, int)}, with the field names and values that repeat the
     * connection's previous head ({@code recent}) taken from there instead of made anew.
     */
    static ResponseHead parse(byte[] b, int from, int end, RecentFields recent) throws BackendProtocolException {
        int eol = lineEnd(b, from, end);
        int sl = stripCr(b, from, eol);
        if (sl - from < 12 || !startsWith(b, from, "HTTP/1.") || b[from + 8] != ' '
                || sl - from > 12 && b[from + 12] != ' ') {
            throw new BackendProtocolException("malformed status line: " + printable(b, from, sl));
        }
        byte minor = b[from + 7];
        if (minor != '0' && minor != '1') {
            throw new BackendProtocolException("unsupported version: " + printable(b, from, sl));
        }
        int status = 0;
        for (int i = from + 9; i < from + 12; i++) {
            byte c = b[i];
            if (c < '0' || c > '9') {
                throw new BackendProtocolException("malformed status code: " + printable(b, from, sl));
            }
            status = status * 10 + (c - '0');
        }
        if (status < 100) {
            throw new BackendProtocolException("status out of range: " + status);
        }
        String reason = sl - from > 13 ? latin1(b, from + 13, sl) : "";
        Headers h = new Headers();
        long length = NO_LENGTH;
        int field = 0;
        int p = eol + 1;
        while (p < end) {
            int e = lineEnd(b, p, end);
            int le = stripCr(b, p, e);
            int line = p;
            p = e + 1;
            if (le == line) {
                break;
            }
            if (b[line] == ' ' || b[line] == '\t') {
                throw new BackendProtocolException("obsolete line folding in the response head");
            }
            int colon = line;
            while (colon < le && HttpChars.isTchar(b[colon])) {
                colon++;
            }
            if (colon == line || colon == le || b[colon] != ':') {
                throw new BackendProtocolException("malformed field line: " + printable(b, line, le));
            }
            int vs = colon + 1;
            int ve = le;
            while (vs < ve && (b[vs] == ' ' || b[vs] == '\t')) {
                vs++;
            }
            while (ve > vs && (b[ve - 1] == ' ' || b[ve - 1] == '\t')) {
                ve--;
            }
            for (int i = vs; i < ve; i++) {
                int c = b[i] & 0xff;
                if (c < 0x20 && c != '\t' || c == 0x7f) {
                    throw new BackendProtocolException("control character in field " + latin1(b, line, colon));
                }
            }
            String name = recent.name(field, b, line, colon);
            if (length != BAD_LENGTH && Headers.equalsIgnoreCase(name, "Content-Length")) {
                long n = lengthValue(b, vs, ve);
                length = n < 0 || length >= 0 && n != length ? BAD_LENGTH : n;
            }
            h.add(name, recent.value(field, b, vs, ve));
            field++;
        }
        return new ResponseHead(minor == '1', status, reason, h, length);
    }

    /**
     * {@return a Content-Length value in {@code b[from, to)}: a decimal number, or a list of
     * equal ones (RFC 9110 §8.6); -1 when malformed or the list's numbers differ}
     */
    private static long lengthValue(byte[] b, int from, int to) {
        long len = -1;
        int i = from;
        do {
            int e = i;
            while (e < to && b[e] != ',') {
                e++;
            }
            int s = i;
            int t = e;
            while (s < t && (b[s] == ' ' || b[s] == '\t')) {
                s++;
            }
            while (t > s && (b[t - 1] == ' ' || b[t - 1] == '\t')) {
                t--;
            }
            if (s == t || t - s > 18) {
                return -1;
            }
            long n = 0;
            for (int k = s; k < t; k++) {
                if (b[k] < '0' || b[k] > '9') {
                    return -1;
                }
                n = n * 10 + (b[k] - '0');
            }
            if (len >= 0 && n != len) {
                return -1;
            }
            len = n;
            i = e + 1;
        } while (i <= to);
        return len;
    }

    /** {@return the index of the {@code \n} ending the line at {@code from} (the head always has one)} */
    private static int lineEnd(byte[] b, int from, int end) {
        int i = from;
        while (i < end && b[i] != '\n') {
            i++;
        }
        return i;
    }

    /** {@return {@code eol}, or one less if the line ends with {@code \r}} */
    private static int stripCr(byte[] b, int from, int eol) {
        return eol > from && b[eol - 1] == '\r' ? eol - 1 : eol;
    }

    private static boolean startsWith(byte[] b, int from, String prefix) {
        for (int i = 0; i < prefix.length(); i++) {
            if (b[from + i] != prefix.charAt(i)) {
                return false;
            }
        }
        return true;
    }

    private static String latin1(byte[] b, int from, int to) {
        return RecentFields.latin1(b, from, to);
    }

    /**
     * How the body is delimited (RFC 9112 §6.3).
     *
     * @param headRequest whether the request was HEAD (then there is never a body)
     * @param contentLength its {@link #contentLength()}, parsed once by the caller
     * @throws BackendProtocolException a transfer coding on an HTTP/1.0 response, or one other than
     *     {@code chunked}
     */
    Framing framing(boolean headRequest, long contentLength) throws BackendProtocolException {
        if (headRequest || status < 200 || status == 204 || status == 304) {
            return Framing.NONE;
        }
        if (headers.contains("Transfer-Encoding")) {
            if (!http11) {
                throw new BackendProtocolException("Transfer-Encoding in an HTTP/1.0 response");
            }
            // Transfer-Encoding is hop-by-hop, not passed on: a coding other than chunked would
            // reach the client undecoded and unlabelled (httpd answers 502 too).
            String codings = String.join(",", headers.all("Transfer-Encoding"));
            if (!onlyChunked(codings)) {
                throw new BackendProtocolException("transfer coding the proxy cannot decode: " + printable(codings));
            }
            return Framing.CHUNKED;
        }
        return contentLength >= 0 ? Framing.LENGTH : Framing.CLOSE;
    }

    /**
     * {@return the Content-Length, or -1 when absent; equal repeated values are one (RFC 9110 §8.6)}
     *
     * @throws BackendProtocolException it is malformed, or its values conflict
     */
    long contentLength() throws BackendProtocolException {
        if (length == BAD_LENGTH) {
            throw new BackendProtocolException("invalid or conflicting Content-Length: "
                    + printable(String.join(", ", headers.all("Content-Length"))));
        }
        return length;
    }

    /** {@return whether the connection may carry another request after this response's body} */
    boolean keepAlive() {
        return http11 && !headers.hasToken("Connection", "close");
    }

    /** {@return whether a Transfer-Encoding list is {@code chunked} once and nothing else (empty elements aside)} */
    private static boolean onlyChunked(String list) {
        int chunked = 0;
        for (String coding : list.split(",")) {
            String t = coding.strip();
            if (t.equalsIgnoreCase("chunked")) {
                chunked++;
            } else if (!t.isEmpty()) {
                return false;
            }
        }
        return chunked == 1;
    }

    private static String printable(byte[] b, int from, int to) {
        return printable(latin1(b, from, to));
    }

    private static String printable(String s) {
        String t = s.length() > 80 ? s.substring(0, 80) + "..." : s;
        return t.replaceAll("[^\\x20-\\x7e]", "?");
    }
}
