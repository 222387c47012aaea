package org.loommpm.http2;

import java.io.IOException;
import java.io.OutputStream;

/**
 * A streamed HTTP/2 response body. Bytes collect in a 16 KiB buffer; a full buffer is handed to
 * the frame loop as one DATA item (the stream gets a fresh buffer, so nothing is copied twice)
 * and the task parks while too much is queued. Closing it before the first buffer filled sends
 * the whole body with a content-length. Owned by the stream's task.
 */
final class Http2OutputStream extends OutputStream {
    private static final int SIZE = 16 * 1024;

    private final Http2Response response;
    private byte[] buf = new byte[SIZE];
    private int count;
    private boolean closed;

    Http2OutputStream(Http2Response response) {
        this.response = response;
    }

    @Override
    public void write(int b) throws IOException {
        if (count == buf.length) {
            drain(false);
        }
        buf[count++] = (byte) b;
    }

    @Override
    public void write(byte[] b, int off, int len) throws IOException {
        if (closed) {
            throw new IOException("stream closed");
        }
        while (len > 0) {
            if (count == buf.length) {
                drain(false);
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
            drain(false);
        }
    }

    private void drain(boolean end) throws IOException {
        response.stream().checkCancelled();
        if (!response.isCommitted()) {
            response.commit(end ? count : -2, end && (count == 0 || response.isHead() || response.bodyForbidden()));
            if (end && (count == 0 || response.isHead() || response.bodyForbidden())) {
                count = 0;
                return;
            }
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
        closed = true;
        drain(true);
        response.markComplete();
    }
}
