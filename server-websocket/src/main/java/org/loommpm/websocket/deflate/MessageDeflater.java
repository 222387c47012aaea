package org.loommpm.websocket.deflate;

import java.io.ByteArrayOutputStream;
import java.util.zip.Deflater;

/**
 * Compresses outgoing messages for one socket (RFC 7692 §7.2.1): raw deflate, flushed with
 * SYNC_FLUSH, the trailing {@code 00 00 ff ff} removed. Without context takeover the compressor
 * is borrowed from the {@link ZlibPool} for one message; with it, the socket keeps its own.
 * Used by whoever sends on the socket, one message at a time, and ended once, by a caller that
 * serialises both (with context takeover, the socket's context lock).
 */
public final class MessageDeflater {
    /** Messages shorter than this are sent uncompressed: deflate's framing would outweigh any gain. */
    public static final int MIN_SIZE = 32;

    private final DeflateParams params;
    private final ZlibPool pool;
    private Deflater kept;
    /** Set by {@link #end}: a message compressed after it (a send racing the close) keeps nothing. */
    private boolean ended;

    /**
     * @param params the negotiated configuration
     * @param pool where compressors are borrowed when there is no context takeover
     */
    public MessageDeflater(DeflateParams params, ZlibPool pool) {
        this.params = params;
        this.pool = pool;
    }

    /** Whether a message of {@code len} bytes is sent compressed. */
    public boolean compresses(int len) {
        return len >= MIN_SIZE && len <= params.maxCompressedInput();
    }

    /** The compressed payload of {@code data[off..off+len)}. */
    public byte[] compress(byte[] data, int off, int len) {
        Deflater d = kept != null ? kept : pool.deflater();
        try {
            d.setInput(data, off, len);
            ByteArrayOutputStream out = new ByteArrayOutputStream(Math.max(64, len / 2 + 16));
            byte[] chunk = new byte[Math.min(16_384, len + 64)];
            int n;
            do {
                n = d.deflate(chunk, 0, chunk.length, Deflater.SYNC_FLUSH);
                out.write(chunk, 0, n);
            } while (n == chunk.length || !d.needsInput());
            byte[] b = out.toByteArray();
            // SYNC_FLUSH ends with an empty stored block, 00 00 ff ff, which the receiver adds back.
            int end = b.length;
            if (end >= 4 && b[end - 4] == 0 && b[end - 3] == 0 && b[end - 2] == (byte) 0xFF && b[end - 1] == (byte) 0xFF) {
                end -= 4;
            }
            return end == b.length ? b : java.util.Arrays.copyOf(b, end);
        } finally {
            if (params.serverNoContextTakeover() || ended) {
                pool.release(d);
            } else {
                kept = d;
            }
        }
    }

    /** Ends the kept compressor, if any (the socket closed). */
    public void end() {
        ended = true;
        if (kept != null) {
            kept.end();
            kept = null;
        }
    }
}
