package org.loommpm.http2;

import org.loommpm.api.Headers;

/**
 * One item a stream task hands to the frame loop through the session's outbound queue: a
 * response head, a piece of body, a file region as the body, a body-window credit, a reset, or
 * the news that the stream's tunnel opened (its timeouts start).
 * The task fills it before
 * the queue's publication and never touches it again (DATA payload memory stays untouched until
 * {@link Stream#written} released it); the frame loop consumes it.
 */
final class Out {
    enum Kind { HEADERS, DATA, FILE, WINDOW_UPDATE, RST, TUNNEL_OPENED }

    final Kind kind;
    final Stream stream;
    /** HEADERS: the status, -1 for trailers; WINDOW_UPDATE: the increment; RST: the error code. */
    final int value;
    /** HEADERS: the fields (a snapshot the task no longer changes). */
    final Headers headers;
    /** DATA: the payload; {@link #off} and {@link #len} advance as frames are cut from it. */
    final byte[] data;
    int off;
    int len;
    /** FILE: the region, read by the frame loop as the windows open (always the last item). */
    final FileBody file;
    /** HEADERS, DATA or FILE: the last item of the response. */
    final boolean endStream;

    private Out(Kind kind, Stream stream, int value, Headers headers, byte[] data, int off, int len, boolean end,
                FileBody file) {
        this.kind = kind;
        this.stream = stream;
        this.value = value;
        this.headers = headers;
        this.data = data;
        this.off = off;
        this.len = len;
        this.endStream = end;
        this.file = file;
    }

    static Out headers(Stream s, int status, Headers fields, boolean endStream) {
        return new Out(Kind.HEADERS, s, status, fields, null, 0, 0, endStream, null);
    }

    /** The response's trailer fields: a HEADERS frame without {@code :status}, ending the stream. */
    static Out trailers(Stream s, Headers fields) {
        return new Out(Kind.HEADERS, s, -1, fields, null, 0, 0, true, null);
    }

    static Out data(Stream s, byte[] data, int off, int len, boolean endStream) {
        return new Out(Kind.DATA, s, 0, null, data, off, len, endStream, null);
    }

    static Out file(Stream s, FileBody body) {
        return new Out(Kind.FILE, s, 0, null, null, 0, 0, true, body);
    }

    static Out windowUpdate(Stream s, int increment) {
        return new Out(Kind.WINDOW_UPDATE, s, increment, null, null, 0, 0, false, null);
    }

    static Out tunnelOpened(Stream s) {
        return new Out(Kind.TUNNEL_OPENED, s, 0, null, null, 0, 0, false, null);
    }

    static Out rst(Stream s, int code) {
        return new Out(Kind.RST, s, code, null, null, 0, 0, false, null);
    }
}
