package org.loommpm.http1;

import java.io.EOFException;
import java.io.IOException;
import java.io.InputStream;
import java.util.Objects;

/**
 * A request body of a declared Content-Length. The next pipelined request follows it in the
 * same stream, so reads are bounded by what is left and never go past the body's end. Closing
 * this stream does not close {@code raw}. Not thread-safe: the body belongs to one worker.
 */
public final class FixedLengthInputStream extends InputStream {
    private final InputStream raw;
    private long remaining;

    /**
     * @param raw the connection's input, positioned at the body's first byte
     * @param length the body's length in bytes
     */
    public FixedLengthInputStream(InputStream raw, long length) {
        if (length < 0) {
            throw new IllegalArgumentException("negative length " + length);
        }
        this.raw = Objects.requireNonNull(raw);
        this.remaining = length;
    }

    /**
     * {@inheritDoc}
     *
     * @throws EOFException when the input ends before the declared length
     */
    @Override
    public int read() throws IOException {
        if (remaining == 0) {
            return -1;
        }
        int b = raw.read();
        if (b < 0) {
            throw prematureEof();
        }
        remaining--;
        return b;
    }

    /**
     * {@inheritDoc}
     *
     * @throws EOFException when the input ends before the declared length
     */
    @Override
    public int read(byte[] b, int off, int len) throws IOException {
        Objects.checkFromIndexSize(off, len, b.length);
        if (len == 0) {
            return 0;
        }
        if (remaining == 0) {
            return -1;
        }
        int n = raw.read(b, off, (int) Math.min(len, remaining));
        if (n < 0) {
            throw prematureEof();
        }
        remaining -= n;
        return n;
    }

    @Override
    public int available() throws IOException {
        return (int) Math.min(raw.available(), remaining);
    }

    /** Body bytes not read yet. */
    public long remaining() {
        return remaining;
    }

    private EOFException prematureEof() {
        return new EOFException("connection closed with " + remaining + " body bytes missing");
    }
}
