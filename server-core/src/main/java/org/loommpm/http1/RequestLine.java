package org.loommpm.http1;

import org.loommpm.api.HttpException;
import org.loommpm.http.RequestHead;
import org.loommpm.http.RequestPath;
import org.loommpm.http.syntax.HttpChars;

/**
 * A validated request line (RFC 9112 §3) with its target resolved to path, query and authority.
 * Kept apart from the field parsing so the target forms (origin, absolute, authority, asterisk)
 * and the authority grammar live in one place.
 *
 * @param method the method token
 * @param rawTarget the target as sent
 * @param path the normalised path ({@link RequestPath#path}; {@code *} for asterisk-form, empty
 *             for authority-form)
 * @param encodedPath its encoded form with path parameters ({@link RequestPath#encoded})
 * @param query the raw query, or {@code null}
 * @param authority the authority of an absolute- or authority-form target, else {@code null}
 * @param version the version the request is processed as: {@code HTTP/1.1} also for
 *                {@code HTTP/1.2} to {@code HTTP/1.9} (RFC 9110 §2.5)
 * @param versionAsSent the version as the line sent it ({@code HTTP/1.0} to {@code HTTP/1.9}),
 *                      one of the {@code SENT_VERSIONS} constants ({@code version.text()} itself
 *                      for 1.0 and 1.1)
 */
record RequestLine(String method, String rawTarget, String path, String encodedPath, String query,
        String authority, RequestHead.Version version, String versionAsSent) {

    /** Common methods returned as constants, saving an allocation per request. */
    private static final String[] KNOWN_METHODS =
            {"GET", "POST", "HEAD", "PUT", "DELETE", "OPTIONS", "PATCH", "CONNECT", "TRACE"};

    /**
     * {@code HTTP/1.}<i>d</i> as sent, by minor digit: constants, so a request line costs no
     * version String and the same version is the same object (compared with {@code ==}).
     */
    private static final String[] SENT_VERSIONS = {RequestHead.Version.HTTP_1_0.text(),
        RequestHead.Version.HTTP_1_1.text(), "HTTP/1.2", "HTTP/1.3", "HTTP/1.4", "HTTP/1.5", "HTTP/1.6",
        "HTTP/1.7", "HTTP/1.8", "HTTP/1.9"};

    /**
     * Parses {@code method SP request-target SP HTTP-version} from {@code buf[from, to)}.
     *
     * @param last the line parsed before on this connection, or {@code null}: returned itself
     *             (no new target String, no new record) when this line is the same, since its
     *             path, query and authority follow from method, target and version alone
     * @throws HttpException 400 when malformed, 505 for a well-formed version of another major
     *                       version than 1 ({@code HTTP/0.9}, {@code HTTP/2.0}, ...)
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
        int minor = http1Minor(buf, te + 1, to);
        String sent = SENT_VERSIONS[minor];
        String method = method(buf, from, sp);
        if (last != null && last.versionAsSent == sent && last.method.equals(method)
                && last.rawTarget.length() == te - ts && Http1Syntax.regionEquals(buf, ts, last.rawTarget)) {
            return last;
        }
        RequestHead.Version version = minor == 0 ? RequestHead.Version.HTTP_1_0 : RequestHead.Version.HTTP_1_1;
        return target(method, Http1Syntax.latin1(buf, ts, te), version, sent);
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

    /**
     * The minor digit of {@code HTTP/1.}<i>d</i> (RFC 9112 §2.3: {@code "HTTP/" DIGIT "." DIGIT},
     * case-sensitive). Any minor version of HTTP/1 is accepted: RFC 9110 §2.5 has a recipient
     * process a higher minor version than it implements as the highest it conforms to (HTTP/1.1
     * here, answered as {@code HTTP/1.1}), as httpd does. Another major version ({@code HTTP/0.9},
     * {@code HTTP/2.0}) is a 505; anything else (two digits, lower case, ...) a 400.
     */
    private static int http1Minor(byte[] buf, int from, int to) {
        if (to - from != 8 || !Http1Syntax.regionEquals(buf, from, "HTTP/") || !isDigit(buf[from + 5])
                || buf[from + 6] != '.' || !isDigit(buf[from + 7])) {
            throw Http1Syntax.bad("malformed HTTP version");
        }
        if (buf[from + 5] != '1') {
            throw new HttpException(505, "unsupported version " + Http1Syntax.latin1(buf, from, to));
        }
        return buf[from + 7] - '0';
    }

    /** Resolves the four target forms of RFC 9112 §3.2. */
    private static RequestLine target(String method, String raw, RequestHead.Version version, String sent) {
        if (method.equals("CONNECT")) {
            if (!HttpChars.isAuthority(raw, true)) {
                throw Http1Syntax.bad("CONNECT needs an authority-form target");
            }
            return new RequestLine(method, raw, "", "", null, raw, version, sent);
        }
        if (raw.charAt(0) == '/') {
            return withPath(method, raw, raw, null, version, sent);
        }
        if (raw.equals("*")) {
            if (!method.equals("OPTIONS")) {
                throw Http1Syntax.bad("asterisk-form target with " + method);
            }
            return new RequestLine(method, raw, "*", "*", null, null, version, sent);
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
        return withPath(method, raw, rest, authority, version, sent);
    }

    /** Splits {@code pathAndQuery} (starting with '/') at the first '?' and normalises the path. */
    private static RequestLine withPath(String method, String raw, String pathAndQuery, String authority,
            RequestHead.Version version, String sent) {
        int q = pathAndQuery.indexOf('?');
        String rawPath = q < 0 ? pathAndQuery : pathAndQuery.substring(0, q);
        String query = q < 0 ? null : pathAndQuery.substring(q + 1);
        RequestPath path = RequestPath.of(rawPath);
        return new RequestLine(method, raw, path.path(), path.encoded(), query, authority, version, sent);
    }

    private static boolean isDigit(byte b) {
        return b >= '0' && b <= '9';
    }
}
