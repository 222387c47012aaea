package org.loommpm.http1;

import java.util.ArrayList;
import java.util.List;
import io.helidon.common.buffers.Bytes;
import org.loommpm.api.Headers;
import org.loommpm.api.HttpException;
import org.loommpm.http.RequestHead;
import org.loommpm.http.syntax.HttpChars;

/**
 * Parses and validates a complete request head (found by {@link HeadScanner}) per RFC 9110 and
 * RFC 9112. It is deliberately strict wherever leniency enables request smuggling or cache
 * poisoning (framing fields, Host, whitespace, bare CR, obs-fold): every deviation is answered
 * with an {@link HttpException} carrying the status the client gets.
 *
 * <p>It remembers the last request line it parsed and the last value of each common field
 * ({@link Http1Syntax#parseFieldLine}), and hands them out again when the next head repeats
 * their bytes: a client sends the same {@code Host}, {@code User-Agent}, {@code Accept} and
 * often the same target on every request of a connection, and each of those would otherwise be
 * a new String (with the request line's record) per request. Strings and the record are
 * immutable, so sharing them between requests is safe; the memory is a parser's, so one parser
 * per connection context, used by one thread at a time.
 */
public final class RequestHeadParser {
    private static final List<String> REGISTERED_CODINGS =
            List.of("gzip", "x-gzip", "deflate", "compress", "x-compress");

    private final int limitRequestLine;
    private final int limitRequestFields;
    private final int limitRequestFieldSize;
    private final long limitRequestBody;
    /** The last request line parsed, handed out again for the same method, target and version. */
    private RequestLine lastLine;
    /** The last value of each of {@link Http1Syntax}'s common field names, by its index. */
    private final String[] recentValues = Http1Syntax.recentValues();

    /**
     * @param limitRequestLine longest request line, in bytes without its line ending
     * @param limitRequestFields most header fields
     * @param limitRequestFieldSize longest field line, in bytes without its line ending
     * @param limitRequestBody largest accepted Content-Length, 0 for no limit
     */
    public RequestHeadParser(int limitRequestLine, int limitRequestFields, int limitRequestFieldSize,
            long limitRequestBody) {
        this.limitRequestLine = limitRequestLine;
        this.limitRequestFields = limitRequestFields;
        this.limitRequestFieldSize = limitRequestFieldSize;
        this.limitRequestBody = limitRequestBody;
    }

    /**
     * Parses the head in {@code buf[start, headEnd)}.
     *
     * @param start the request line's first byte ({@link HeadScanner#requestLineStart()})
     * @param headEnd the index just after the empty line ending the head ({@link HeadScanner#scan})
     * @throws HttpException 400, 413, 414, 417, 431, 501 or 505 (a major version other than 1)
     *                       when the head is not acceptable
     */
    public RequestHead parse(byte[] buf, int start, int headEnd) {
        return parse(buf, start, headEnd, 8);
    }

    /**
     * As {@link #parse(byte[], int, int)}, with the number of field lines known
     * ({@link HeadScanner#fields()}): the request's header set is made that size.
     */
    public RequestHead parse(byte[] buf, int start, int headEnd, int fieldLines) {
        int lf = Bytes.firstIndexOf(buf, start, headEnd, Http1Syntax.LF);
        if (lf < 0) {
            throw Http1Syntax.bad("request line without line ending");
        }
        int lineEnd = stripCr(buf, start, lf);
        if (lineEnd - start > limitRequestLine) {
            throw new HttpException(414, "request line longer than " + limitRequestLine + " bytes");
        }
        RequestLine line = RequestLine.parse(buf, start, lineEnd, lastLine);
        lastLine = line;
        Headers headers = new Headers(fieldLines);
        int fields = 0;
        while (true) {
            int ls = lf + 1;
            lf = Bytes.firstIndexOf(buf, ls, headEnd, Http1Syntax.LF);
            if (lf < 0) {
                throw Http1Syntax.bad("head does not end with an empty line");
            }
            int le = stripCr(buf, ls, lf);
            if (le == ls) {
                break;
            }
            if (++fields > limitRequestFields) {
                throw new HttpException(431, "more than " + limitRequestFields + " header fields");
            }
            if (le - ls > limitRequestFieldSize) {
                throw new HttpException(431, "header field line longer than " + limitRequestFieldSize + " bytes");
            }
            Http1Syntax.parseFieldLine(buf, ls, le, headers, recentValues);
        }
        return interpret(line, headers);
    }

    /**
     * Applies the semantic rules on Host, framing, Connection and Expect: HTTP/1.1's for
     * {@code HTTP/1.1} and for a higher minor version ({@code HTTP/1.2}, processed as 1.1).
     */
    private RequestHead interpret(RequestLine line, Headers headers) {
        boolean http11 = line.version() == RequestHead.Version.HTTP_1_1;
        String host = hostOf(line, headers, http11);
        boolean chunked = false;
        long contentLength = -1;
        if (headers.contains("Transfer-Encoding")) {
            if (headers.contains("Content-Length")) {
                throw Http1Syntax.bad("both Transfer-Encoding and Content-Length");
            }
            if (!http11) {
                throw Http1Syntax.bad("Transfer-Encoding in an HTTP/1.0 request");
            }
            checkTransferCodings(headers.all("Transfer-Encoding"));
            chunked = true;
        } else if (headers.contains("Content-Length")) {
            contentLength = contentLength(headers);
        }
        boolean close = headers.hasToken("Connection", "close");
        boolean keepAlive = http11 ? !close : !close && headers.hasToken("Connection", "keep-alive");
        boolean expectContinue = false;
        for (int i = 0; i < headers.size(); i++) {
            if (!Headers.equalsIgnoreCase(headers.name(i), "Expect")) {
                continue;
            }
            String expect = headers.value(i);
            if (!expect.equalsIgnoreCase("100-continue")) {
                throw new HttpException(417, "unsupported expectation: " + expect);
            }
            // RFC 9110 §10.1.1: a 100-continue expectation in HTTP/1.0 is ignored.
            expectContinue = http11;
        }
        return new RequestHead(line.method(), line.rawTarget(), line.path(), line.encodedPath(),
                line.query(), line.version(), line.versionAsSent(), headers, contentLength, chunked,
                keepAlive, expectContinue, host);
    }

    /** Checks Host (RFC 9112 §3.2) and picks the target host, which the Host field then carries. */
    private static String hostOf(RequestLine line, Headers headers, boolean http11) {
        int hosts = headers.count("Host");
        if (hosts > 1) {
            throw Http1Syntax.bad("more than one Host field");
        }
        if (hosts == 0 && http11) {
            throw Http1Syntax.bad("HTTP/1.1 request without Host");
        }
        String host = headers.first("Host");
        if (host != null && !host.isEmpty() && !HttpChars.isAuthority(host, false)) {
            throw Http1Syntax.bad("invalid Host: " + host);
        }
        String authority = line.authority();
        if (authority == null) {
            return host;
        }
        // RFC 9112 §3.2.2: the target's authority, not Host, names the host; handlers (and a
        // proxy forwarding the request) read the Host field, so it must say the same.
        headers.set("Host", authority);
        return authority;
    }

    /**
     * Accepts exactly one {@code chunked}, last, possibly spread over several fields
     * (RFC 9112 §6.1, §6.3): a misplaced or repeated chunked is a framing error (400); a coding
     * we do not implement is a 501, unless only registered codings were sent without a final
     * chunked, where the body length cannot be determined (400).
     */
    private static void checkTransferCodings(List<String> values) {
        List<String> codings = new ArrayList<>(2);
        for (String value : values) {
            int before = codings.size();
            for (String element : value.split(",", -1)) {
                String coding = element.strip();
                if (coding.isEmpty()) {
                    continue; // empty list elements are allowed (RFC 9110 §5.6.1.2)
                }
                int semicolon = coding.indexOf(';');
                String name = semicolon < 0 ? coding : coding.substring(0, semicolon).stripTrailing();
                if (!HttpChars.isToken(name)) {
                    throw Http1Syntax.bad("malformed transfer coding: " + coding);
                }
                if (semicolon >= 0 && name.equalsIgnoreCase("chunked")) {
                    throw Http1Syntax.bad("chunked with parameters");
                }
                codings.add(name);
            }
            if (codings.size() == before) {
                throw Http1Syntax.bad("empty Transfer-Encoding");
            }
        }
        int last = codings.size() - 1;
        for (int i = 0; i < last; i++) {
            if (codings.get(i).equalsIgnoreCase("chunked")) {
                throw Http1Syntax.bad("chunked is not the only, final transfer coding");
            }
        }
        boolean chunkedLast = codings.get(last).equalsIgnoreCase("chunked");
        if (chunkedLast && last == 0) {
            return;
        }
        if (chunkedLast || !codings.stream().allMatch(RequestHeadParser::isRegistered)) {
            throw new HttpException(501, "unimplemented transfer coding: " + String.join(", ", codings));
        }
        throw Http1Syntax.bad("chunked is not the final transfer coding");
    }

    /** Codings registered with IANA that this server does not implement. */
    private static boolean isRegistered(String coding) {
        for (String known : REGISTERED_CODINGS) {
            if (coding.equalsIgnoreCase(known)) {
                return true;
            }
        }
        return false;
    }

    /** One Content-Length of 1*DIGIT, within LimitRequestBody (RFC 9112 §6.3). */
    private long contentLength(Headers headers) {
        if (headers.count("Content-Length") > 1) {
            throw Http1Syntax.bad("more than one Content-Length field");
        }
        String v = headers.first("Content-Length");
        if (v.isEmpty()) {
            throw Http1Syntax.bad("empty Content-Length");
        }
        long n = 0;
        for (int i = 0; i < v.length(); i++) {
            int d = v.charAt(i) - '0';
            if (d < 0 || d > 9) {
                throw Http1Syntax.bad("malformed Content-Length: " + v);
            }
            if (n > (Long.MAX_VALUE - d) / 10) {
                throw Http1Syntax.bad("Content-Length overflows: " + v);
            }
            n = n * 10 + d;
        }
        if (limitRequestBody > 0 && n > limitRequestBody) {
            throw new HttpException(413, "Content-Length " + n + " exceeds LimitRequestBody " + limitRequestBody);
        }
        return n;
    }

    /** End of the line {@code [from, lf)} without the CR of a CRLF. */
    private static int stripCr(byte[] buf, int from, int lf) {
        return lf > from && buf[lf - 1] == Http1Syntax.CR ? lf - 1 : lf;
    }
}
