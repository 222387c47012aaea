package org.loommpm.http2;

import java.io.IOException;
import java.io.OutputStream;
import org.loommpm.api.Headers;

/**
 * A streamed HTTP/2 response body. Bytes collect in a 16 KiB buffer; a full buffer is handed to
 * the frame loop as one DATA item (the stream gets a fresh buffer, so nothing is copied twice)
 * and the task parks while too much is queued. Closing it before the first buffer filled sends
 * the whole body with a content-length. Owned by the stream's task.
 */
final class Http2OutputStream extends OutputStream {
    private static final int SIZE = 16 * 1024;

    private final Http2Response response;
    /** The Content-Length the handler set, or -1: the body is held to it (RFC 9113 §8.1.1). */
    private final long declared;
    /** HEAD, 204, 304: the bytes written are dropped, so only a body longer than declared fails. */
    private final boolean discard;
    private byte[] buf = new byte[SIZE];
    private int count;
    private long written;
    private boolean closed;

    /** @throws IllegalArgumentException if the handler set an invalid Content-Length */
    Http2OutputStream(Http2Response response) {
        this.response = response;
        this.discard = response.isHead() || response.bodyForbidden();
        String cl = response.headers().first("Content-Length");
        long n = -1;
        if (cl != null) {
            try {
                n = Long.parseLong(cl.trim());
            } catch (NumberFormatException e) {
                // n stays negative
            }
            if (n < 0) {
                throw new IllegalArgumentException("invalid Content-Length set by handler: " + cl);
            }
        }
        this.declared = n;
    }

    /**
     * Counts {@code len} more body bytes. A body longer than the Content-Length set fails before
     * it is queued: a DATA total other than content-length makes the response malformed, and the
     * failure resets the stream (or, before the head is out, becomes a 500), as HTTP/1.1 closes
     * the connection.
     */
    private void accept(int len) throws IOException {
        if (closed) {
            throw new IOException("stream closed");
        }
        written += len;
        if (declared >= 0 && written > declared) {
            throw new IOException("body longer than the Content-Length set: " + declared);
        }
    }

    @Override
    public void write(int b) throws IOException {
        accept(1);
        if (count == buf.length) {
            drain(false, null);
        }
        buf[count++] = (byte) b;
    }

    @Override
    public void write(byte[] b, int off, int len) throws IOException {
        java.util.Objects.checkFromIndexSize(off, len, b.length);
        accept(len);
        while (len > 0) {
            if (count == buf.length) {
                drain(false, null);
            }
            int n = Math.min(len, buf.length - count);
            System.arraycopy(b, off, buf, count, n);
            count += n;
            off += n;
            len -= n;
        }
    }

    /** Sends what is buffered (a flush commits the head). */
    @Override
    public void flush() throws IOException {
        if (!closed && (count > 0 || !response.isCommitted())) {
            drain(false, null);
        }
    }

    /** @param trailers the fields that end the body ({@code end} only), or {@code null} */
    private void drain(boolean end, Headers trailers) throws IOException {
        response.stream().checkCancelled();
        if (!response.isCommitted()) {
            boolean empty = end && (count == 0 || response.isHead() || response.bodyForbidden());
            response.commit(end ? count : -2, empty && trailers == null);
            if (empty && trailers == null) {
                count = 0;
                return;
            }
        }
        if (trailers != null) {
            if (count > 0) {
                response.data(buf, 0, count, false);
                count = 0;
            }
            response.endWithTrailers(trailers);
            return;
        }
        if (response.isHead() || response.bodyForbidden()) {
            count = 0; // no body on the wire; the bytes are dropped
            if (end) {
                response.data(new byte[0], 0, 0, true);
            }
            return;
        }
        if (count == 0 && !end) {
            return;
        }
        byte[] full = buf;
        int n = count;
        buf = end ? buf : new byte[SIZE];
        count = 0;
        response.data(full, 0, n, end);
    }

    @Override
    public void close() throws IOException {
        if (closed) {
            return;
        }
        if (!discard && declared >= 0 && written != declared) {
            // Left open: finish() closes it again and fails the same way, so the exchange ends
            // as a failure (a 500, or a reset once the head is out) whether or not the handler
            // catches this.
            throw new IOException("body shorter than the Content-Length set: " + written + " < " + declared);
        }
        // The trailer fields, now that the body is complete; asked before anything more is queued
        // (a head not yet committed can still become a 500) and while the stream is still open:
        // a bad field fails again when finish() closes it, so the exchange ends as a failure.
        Headers trailers = response.trailing() ? response.trailerFields() : null;
        closed = true;
        drain(true, trailers);
        response.markComplete();
    }
}
