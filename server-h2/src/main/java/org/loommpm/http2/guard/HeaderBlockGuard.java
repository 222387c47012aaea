package org.loommpm.http2.guard;

import java.util.Arrays;
import org.loommpm.http2.frame.ErrorCode;
import org.loommpm.http2.frame.Http2Error;

/**
 * Assembles one header block from a HEADERS frame and its CONTINUATION frames, bounded
 * (CONTINUATION flood, CVE-2024-27316): at most {@code maxBytes} compressed bytes (twice
 * {@code H2MaxHeaderListSize}: compression rarely expands more than that) and at most
 * {@code maxFrames} CONTINUATION frames. Beyond either the connection ends with
 * ENHANCE_YOUR_CALM, without buffering further. Frame loop only; reused block after block.
 */
public final class HeaderBlockGuard {
    private final int maxBytes;
    private final int maxFrames;
    private byte[] block = new byte[1024];
    private int length;
    private int continuations;

    public HeaderBlockGuard(int maxBytes, int maxFrames) {
        this.maxBytes = maxBytes;
        this.maxFrames = maxFrames;
    }

    /** Starts a block with the HEADERS frame's fragment. */
    public void start(byte[] src, int off, int len) throws Http2Error {
        length = 0;
        continuations = 0;
        append(src, off, len);
    }

    /** Adds a CONTINUATION frame's fragment. */
    public void continuation(byte[] src, int off, int len) throws Http2Error {
        if (++continuations > maxFrames) {
            throw Http2Error.connection(ErrorCode.ENHANCE_YOUR_CALM, "CONTINUATION flood: more than "
                    + maxFrames + " frames in one header block");
        }
        append(src, off, len);
    }

    private void append(byte[] src, int off, int len) throws Http2Error {
        if (length + len > maxBytes) {
            throw Http2Error.connection(ErrorCode.ENHANCE_YOUR_CALM, "header block larger than " + maxBytes + " bytes");
        }
        if (length + len > block.length) {
            block = Arrays.copyOf(block, Math.min(maxBytes, Math.max(block.length * 2, length + len)));
        }
        System.arraycopy(src, off, block, length, len);
        length += len;
    }

    /** The assembled block (valid until the next {@link #start}). */
    public byte[] block() {
        return block;
    }

    public int length() {
        return length;
    }
}
