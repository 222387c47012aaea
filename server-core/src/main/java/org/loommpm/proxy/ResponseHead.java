package org.loommpm.proxy;

import java.nio.charset.StandardCharsets;
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
 */
record ResponseHead(boolean http11, int status, String reason, Headers headers) {
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

    static ResponseHead parse(byte[] b, int from, int end) throws BackendProtocolException {
        String text = new String(b, from, end - from, StandardCharsets.ISO_8859_1);
        int eol = text.indexOf('\n');
        String statusLine = stripCr(text.substring(0, eol));
        if (statusLine.length() < 12 || !statusLine.startsWith("HTTP/1.") || statusLine.charAt(8) != ' '
                || statusLine.length() > 12 && statusLine.charAt(12) != ' ') {
            throw new BackendProtocolException("malformed status line: " + printable(statusLine));
        }
        char minor = statusLine.charAt(7);
        if (minor != '0' && minor != '1') {
            throw new BackendProtocolException("unsupported version: " + printable(statusLine));
        }
        int status = 0;
        for (int i = 9; i < 12; i++) {
            char c = statusLine.charAt(i);
            if (c < '0' || c > '9') {
                throw new BackendProtocolException("malformed status code: " + printable(statusLine));
            }
            status = status * 10 + (c - '0');
        }
        if (status < 100) {
            throw new BackendProtocolException("status out of range: " + status);
        }
        String reason = statusLine.length() > 13 ? statusLine.substring(13) : "";
        Headers h = new Headers();
        int p = eol + 1;
        while (p < text.length()) {
            int e = text.indexOf('\n', p);
            String line = stripCr(text.substring(p, e));
            p = e + 1;
            if (line.isEmpty()) {
                break;
            }
            char first = line.charAt(0);
            if (first == ' ' || first == '\t') {
                throw new BackendProtocolException("obsolete line folding in the response head");
            }
            int colon = line.indexOf(':');
            if (colon <= 0 || !HttpChars.isToken(line.substring(0, colon))) {
                throw new BackendProtocolException("malformed field line: " + printable(line));
            }
            String value = line.substring(colon + 1).strip();
            for (int i = 0; i < value.length(); i++) {
                char c = value.charAt(i);
                if (c < 0x20 && c != '\t' || c == 0x7f) {
                    throw new BackendProtocolException("control character in field " + line.substring(0, colon));
                }
            }
            h.add(line.substring(0, colon), value);
        }
        return new ResponseHead(minor == '1', status, reason, h);
    }

    /**
     * How the body is delimited (RFC 9112 §6.3).
     *
     * @param headRequest whether the request was HEAD (then there is never a body)
     * @param contentLength its {@link #contentLength()}, parsed once by the caller
     * @throws BackendProtocolException a transfer coding on an HTTP/1.0 response
     */
    Framing framing(boolean headRequest, long contentLength) throws BackendProtocolException {
        if (headRequest || status < 200 || status == 204 || status == 304) {
            return Framing.NONE;
        }
        if (headers.contains("Transfer-Encoding")) {
            if (!http11) {
                throw new BackendProtocolException("Transfer-Encoding in an HTTP/1.0 response");
            }
            // Chunked must be the final coding; anything else is read until close (§6.3 rule 4).
            String last = lastToken(String.join(",", headers.all("Transfer-Encoding")));
            return last.equalsIgnoreCase("chunked") ? Framing.CHUNKED : Framing.CLOSE;
        }
        return contentLength >= 0 ? Framing.LENGTH : Framing.CLOSE;
    }

    /** {@return the Content-Length, or -1 when absent; equal repeated values are one (RFC 9110 §8.6)} */
    long contentLength() throws BackendProtocolException {
        long len = -1;
        for (String v : headers.all("Content-Length")) {
            for (String part : v.split(",")) {
                String s = part.strip();
                if (s.isEmpty() || s.length() > 18 || !s.chars().allMatch(c -> c >= '0' && c <= '9')) {
                    throw new BackendProtocolException("invalid Content-Length: " + printable(v));
                }
                long n = Long.parseLong(s);
                if (len >= 0 && n != len) {
                    throw new BackendProtocolException("conflicting Content-Length values");
                }
                len = n;
            }
        }
        return len;
    }

    /** {@return whether the connection may carry another request after this response's body} */
    boolean keepAlive() {
        return http11 && !headers.hasToken("Connection", "close");
    }

    private static String lastToken(String list) {
        int comma = list.lastIndexOf(',');
        String t = comma < 0 ? list : list.substring(comma + 1);
        int semi = t.indexOf(';');
        return (semi < 0 ? t : t.substring(0, semi)).strip();
    }

    private static String stripCr(String s) {
        return s.endsWith("\r") ? s.substring(0, s.length() - 1) : s;
    }

    private static String printable(String s) {
        String t = s.length() > 80 ? s.substring(0, 80) + "..." : s;
        return t.replaceAll("[^\\x20-\\x7e]", "?");
    }
}
