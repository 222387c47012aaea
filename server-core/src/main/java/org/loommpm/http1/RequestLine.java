package org.loommpm.http1;

import org.loommpm.api.HttpException;
import org.loommpm.http.RequestHead;
import org.loommpm.http.UriCodec;
import org.loommpm.http.syntax.HttpChars;

/**
 * A validated request line (RFC 9112 §3) with its target resolved to path, query and authority.
 * Kept apart from the field parsing so the target forms (origin, absolute, authority, asterisk)
 * and the authority grammar live in one place.
 *
 * @param method the method token
 * @param rawTarget the target as sent
 * @param path the decoded path ({@code *} for asterisk-form, empty for authority-form)
 * @param query the raw query, or {@code null}
 * @param authority the authority of an absolute- or authority-form target, else {@code null}
 * @param version the protocol version
 */
record RequestLine(String method, String rawTarget, String path, String query, String authority,
        RequestHead.Version version) {

    /** Common methods returned as constants, saving an allocation per request. */
    private static final String[] KNOWN_METHODS =
            {"GET", "POST", "HEAD", "PUT", "DELETE", "OPTIONS", "PATCH", "CONNECT", "TRACE"};

    /**
     * Parses {@code method SP request-target SP HTTP-version} from {@code buf[from, to)}.
     *
     * @param last the line parsed before on this connection, or {@code null}: returned itself
     *             (no new target String, no new record) when this line is the same, since its
     *             path, query and authority follow from method, target and version alone
     * @throws HttpException 400 when malformed, 505 for a well-formed but unsupported version
     */
    static RequestLine parse(byte[] buf, int from, int to, RequestLine last) {
        int sp = from;
        while (sp < to && HttpChars.isTchar(buf[sp])) {
            sp++;
        }
        if (sp == from || sp == to || buf[sp] != ' ') {
            throw Http1Syntax.bad("malformed method");
        }
        int ts = sp + 1;
        int te = ts;
        while (te < to && buf[te] != ' ') {
            int b = buf[te] & 0xFF;
            if (b < 0x21 || b > 0x7E || b == '#') {
                throw Http1Syntax.bad("invalid byte in request target");
            }
            te++;
        }
        if (te == ts || te == to) {
            throw Http1Syntax.bad("malformed request line");
        }
        RequestHead.Version version = version(buf, te + 1, to);
        String method = method(buf, from, sp);
        if (last != null && last.version == version && last.method.equals(method)
                && last.rawTarget.length() == te - ts && Http1Syntax.regionEquals(buf, ts, last.rawTarget)) {
            return last;
        }
        return target(method, Http1Syntax.latin1(buf, ts, te), version);
    }

    private static String method(byte[] buf, int from, int to) {
        int len = to - from;
        for (String m : KNOWN_METHODS) {
            if (m.length() == len && Http1Syntax.regionEquals(buf, from, m)) {
                return m;
            }
        }
        return Http1Syntax.latin1(buf, from, to);
    }

    /** {@code HTTP/1.1} or {@code HTTP/1.0}; any other {@code HTTP/d.d} is a 505. */
    private static RequestHead.Version version(byte[] buf, int from, int to) {
        if (to - from != 8 || !Http1Syntax.regionEquals(buf, from, "HTTP/") || !isDigit(buf[from + 5])
                || buf[from + 6] != '.' || !isDigit(buf[from + 7])) {
            throw Http1Syntax.bad("malformed HTTP version");
        }
        if (buf[from + 5] == '1' && buf[from + 7] == '1') {
            return RequestHead.Version.HTTP_1_1;
        }
        if (buf[from + 5] == '1' && buf[from + 7] == '0') {
            return RequestHead.Version.HTTP_1_0;
        }
        throw new HttpException(505, "unsupported version " + Http1Syntax.latin1(buf, from, to));
    }

    /** Resolves the four target forms of RFC 9112 §3.2. */
    private static RequestLine target(String method, String raw, RequestHead.Version version) {
        if (method.equals("CONNECT")) {
            if (!HttpChars.isAuthority(raw, true)) {
                throw Http1Syntax.bad("CONNECT needs an authority-form target");
            }
            return new RequestLine(method, raw, "", null, raw, version);
        }
        if (raw.charAt(0) == '/') {
            return withPath(method, raw, raw, null, version);
        }
        if (raw.equals("*")) {
            if (!method.equals("OPTIONS")) {
                throw Http1Syntax.bad("asterisk-form target with " + method);
            }
            return new RequestLine(method, raw, "*", null, null, version);
        }
        int authStart;
        if (raw.regionMatches(true, 0, "http://", 0, 7)) {
            authStart = 7;
        } else if (raw.regionMatches(true, 0, "https://", 0, 8)) {
            authStart = 8;
        } else {
            throw Http1Syntax.bad("unsupported request target form");
        }
        int authEnd = authStart;
        while (authEnd < raw.length() && raw.charAt(authEnd) != '/' && raw.charAt(authEnd) != '?') {
            authEnd++;
        }
        String authority = raw.substring(authStart, authEnd);
        if (!HttpChars.isAuthority(authority, false)) {
            throw Http1Syntax.bad("invalid authority in absolute-form target");
        }
        String rest = raw.substring(authEnd);
        if (!rest.startsWith("/")) {
            rest = "/" + rest;
        }
        return withPath(method, raw, rest, authority, version);
    }

    /** Splits {@code pathAndQuery} (starting with '/') at the first '?' and decodes the path. */
    private static RequestLine withPath(String method, String raw, String pathAndQuery, String authority,
            RequestHead.Version version) {
        int q = pathAndQuery.indexOf('?');
        String rawPath = q < 0 ? pathAndQuery : pathAndQuery.substring(0, q);
        String query = q < 0 ? null : pathAndQuery.substring(q + 1);
        return new RequestLine(method, raw, UriCodec.decodePath(rawPath), query, authority, version);
    }

    private static boolean isDigit(byte b) {
        return b >= '0' && b <= '9';
    }
}
