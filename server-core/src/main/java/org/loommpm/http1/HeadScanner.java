package org.loommpm.http1;

import io.helidon.common.buffers.Bytes;
import org.loommpm.api.HttpException;

/**
 * Finds the end of a request head in a connection's read buffer, incrementally.
 *
 * <p>A slow client delivers a head in many pieces; rescanning from the start on every read would
 * be O(n²), so the scanner remembers how far it got and only looks at the new bytes. While the
 * head is incomplete it enforces the size limits on the line in progress, so a client cannot make
 * the connection buffer more than LimitRequestLine, LimitRequestFieldSize and LimitRequestFields
 * allow. It only finds line boundaries, and checks that the request line ends with a version
 * (so HTTP/0.9's one-line request is refused when its line ends); {@link RequestHeadParser}
 * validates the syntax once the head is complete.
 *
 * <p>Line ends are found with helidon-common-buffers' SWAR {@link Bytes#firstIndexOf}, which scans
 * eight bytes per step and works directly on the caller's {@code byte[]} range, so it fits the
 * resumable design (its {@code BufferData}/{@code DataReader} would own the buffering instead).
 *
 * <p>Positions are kept relative to {@code headStart}, so the caller may also move the
 * unconsumed head within its buffer between calls. One scanner per connection; not thread-safe.
 */
public final class HeadScanner {
    /** Empty lines tolerated before the request line (RFC 9112 §2.2), as httpd's DEFAULT_LIMIT_BLANK_LINES. */
    static final int MAX_LEADING_EMPTY_LINES = 10;
    /** {@code HTTP/x.x}. */
    private static final int VERSION_LENGTH = 8;

    private final int limitRequestLine;
    private final int limitRequestFields;
    private final int limitRequestFieldSize;

    private int headStart;
    /** Relative index of the first byte not yet searched for LF. */
    private int next;
    /** Relative start of the line in progress. */
    private int lineStart;
    /** Relative start of the request line, -1 while still skipping leading empty lines. */
    private int requestLine = -1;
    /** Relative index just after the head's empty line, -1 until found. */
    private int headEnd = -1;
    private int emptyLines;
    private int fields;

    /**
     * @param limitRequestLine longest request line, in bytes without its line ending
     * @param limitRequestFields most field lines
     * @param limitRequestFieldSize longest field line, in bytes without its line ending
     */
    public HeadScanner(int limitRequestLine, int limitRequestFields, int limitRequestFieldSize) {
        this.limitRequestLine = limitRequestLine;
        this.limitRequestFields = limitRequestFields;
        this.limitRequestFieldSize = limitRequestFieldSize;
    }

    /** Forgets the previous head, ready for the next request on the connection. */
    public void reset() {
        headStart = 0;
        next = 0;
        lineStart = 0;
        requestLine = -1;
        headEnd = -1;
        emptyLines = 0;
        fields = 0;
    }

    /**
     * Continues the scan of the head starting at {@code headStart}, now that the buffer holds
     * bytes up to {@code end} (exclusive).
     *
     * @return the index just after the empty line ending the head, or -1 while incomplete
     * @throws HttpException 414 (request line too long), 431 (field line too long or too many
     *     fields) or 400 (too many empty lines before the request line, or a request line that
     *     does not end with an HTTP version)
     */
    public int scan(byte[] buf, int headStart, int end) {
        this.headStart = headStart;
        if (headEnd >= 0) {
            return headStart + headEnd;
        }
        int p = headStart + next;
        while (true) {
            int lf = Bytes.firstIndexOf(buf, p, end, Http1Syntax.LF);
            int ls = headStart + lineStart;
            if (lf < 0) {
                next = end - headStart;
                checkPartialLine(contentLength(buf, ls, end));
                return -1;
            }
            int len = contentLength(buf, ls, lf);
            if (requestLine < 0) {
                if (len > 0) {
                    if (len > limitRequestLine) {
                        throw tooLongRequestLine();
                    }
                    if (!endsWithVersion(buf, ls, ls + len)) {
                        // HTTP/0.9's "GET /" has no head end to wait for: answer now, not at the timeout.
                        throw Http1Syntax.bad("request line without an HTTP version (HTTP/0.9 is not supported)");
                    }
                    requestLine = lineStart;
                } else if (++emptyLines > MAX_LEADING_EMPTY_LINES) {
                    throw Http1Syntax.bad("too many empty lines before the request line");
                }
            } else if (len == 0) {
                headEnd = lf + 1 - headStart;
                next = headEnd;
                return lf + 1;
            } else {
                checkField(++fields, len);
            }
            p = lf + 1;
            lineStart = p - headStart;
        }
    }

    /** The field lines of the head {@link #scan} found whole (so far, before that). */
    public int fields() {
        return fields;
    }

    /**
     * Index of the request line's first byte (after any leading empty lines), valid once
     * {@link #scan} has returned a head end.
     *
     * @throws IllegalStateException before the request line has been found
     */
    public int requestLineStart() {
        if (requestLine < 0) {
            throw new IllegalStateException("no request line scanned yet");
        }
        return headStart + requestLine;
    }

    /**
     * Whether the request line ending at {@code end} ends with {@code SP "HTTP/" x.x}: the rest of
     * the version and of the line is {@link RequestLine}'s to check, which rejects any other
     * ending with the same 400.
     */
    private static boolean endsWithVersion(byte[] buf, int from, int end) {
        int v = end - VERSION_LENGTH;
        return v - 1 > from && buf[v - 1] == ' ' && buf[v] == 'H' && buf[v + 1] == 'T' && buf[v + 2] == 'T'
                && buf[v + 3] == 'P' && buf[v + 4] == '/';
    }

    /** Length of the line {@code [from, to)} without a CR that ends it (a CR of CRLF). */
    private static int contentLength(byte[] buf, int from, int to) {
        return to > from && buf[to - 1] == Http1Syntax.CR ? to - from - 1 : to - from;
    }

    /** Rejects the unterminated line early when it can only end in an error anyway. */
    private void checkPartialLine(int len) {
        if (requestLine < 0) {
            if (len > limitRequestLine) {
                throw tooLongRequestLine();
            }
        } else if (len > 0) {
            checkField(fields + 1, len);
        }
    }

    private void checkField(int number, int len) {
        if (number > limitRequestFields) {
            throw new HttpException(431, "more than " + limitRequestFields + " header fields");
        }
        if (len > limitRequestFieldSize) {
            throw new HttpException(431, "header field line longer than " + limitRequestFieldSize + " bytes");
        }
    }

    private HttpException tooLongRequestLine() {
        return new HttpException(414, "request line longer than " + limitRequestLine + " bytes");
    }
}
