package org.loommpm.http2;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.loommpm.http2.frame.FrameType;
import org.loommpm.spi.ProtocolConnection;

/**
 * The frames the frame loop has decided to send, gathered into one socket write: frame headers
 * and small payloads are copied into a scratch array; large DATA payloads are referenced where
 * the stream task left them (no copy) and are acknowledged to their streams only after the write
 * ({@link Stream#written}), so a task may not reuse that memory before.
 *
 * <p>Owned by the connection's owner (the frame loop); never shared.
 */
final class OutputBatch {
    /** Payloads at least this long are referenced instead of copied. */
    private static final int COPY_LIMIT = 1024;
    private static final int CHUNK = 32 * 1024;

    private final byte[] primary = new byte[CHUNK];
    private byte[] scratch = primary;
    private int segmentStart;
    private int pos;
    private final List<ByteBuffer> segments = new ArrayList<>();
    private Stream[] acked = new Stream[16];
    private int[] ackedBytes = new int[16];
    private int acks;
    private long bytes;

    /** Bytes gathered so far. */
    long size() {
        return bytes;
    }

    boolean isEmpty() {
        return bytes == 0;
    }

    /**
     * Writes everything (parking while the socket is full), then acknowledges the DATA bytes to
     * their streams. A failed write acknowledges them too: nothing more will be sent, and a task
     * waiting for its lent body must not wait for a write that will never happen.
     */
    void flush(ProtocolConnection c) throws IOException {
        if (bytes == 0) {
            return;
        }
        ByteBuffer[] all = gather();
        try {
            if (all.length == 1) {
                c.write(all[0]);
            } else {
                c.write(all);
            }
        } finally {
            discard();
        }
    }

    /** The gathered bytes as the buffers of one gathering write; valid until {@link #discard}. */
    ByteBuffer[] gather() {
        cut();
        return segments.toArray(new ByteBuffer[0]);
    }

    /** Drops what is gathered (the connection is ending) and releases the streams' lent bytes. */
    void discard() {
        segments.clear();
        scratch = primary;
        segmentStart = 0;
        pos = 0;
        bytes = 0;
        for (int i = 0; i < acks; i++) {
            acked[i].written(ackedBytes[i]);
            acked[i] = null;
        }
        acks = 0;
    }

    /** Appends a frame header. */
    void header(int length, int type, int flags, int streamId) {
        ensure(FrameType.HEADER_LENGTH);
        byte[] b = scratch;
        int p = pos;
        b[p] = (byte) (length >>> 16);
        b[p + 1] = (byte) (length >>> 8);
        b[p + 2] = (byte) length;
        b[p + 3] = (byte) type;
        b[p + 4] = (byte) flags;
        b[p + 5] = (byte) (streamId >>> 24 & 0x7f);
        b[p + 6] = (byte) (streamId >>> 16);
        b[p + 7] = (byte) (streamId >>> 8);
        b[p + 8] = (byte) streamId;
        pos += FrameType.HEADER_LENGTH;
        bytes += FrameType.HEADER_LENGTH;
    }

    /** Appends bytes (copied). */
    void copy(byte[] src, int off, int len) {
        ensure(len);
        System.arraycopy(src, off, scratch, pos, len);
        pos += len;
        bytes += len;
    }

    void int32(int v) {
        ensure(4);
        scratch[pos] = (byte) (v >>> 24);
        scratch[pos + 1] = (byte) (v >>> 16);
        scratch[pos + 2] = (byte) (v >>> 8);
        scratch[pos + 3] = (byte) v;
        pos += 4;
        bytes += 4;
    }

    void int16(int v) {
        ensure(2);
        scratch[pos] = (byte) (v >>> 8);
        scratch[pos + 1] = (byte) v;
        pos += 2;
        bytes += 2;
    }

    /** Appends one DATA frame whose payload belongs to {@code owner}'s queued bytes. */
    void data(Stream owner, byte[] src, int off, int len, boolean endStream) {
        ownData(owner.id(), src, off, len, endStream);
        if (acks == acked.length) {
            acked = Arrays.copyOf(acked, acks * 2);
            ackedBytes = Arrays.copyOf(ackedBytes, acks * 2);
        }
        acked[acks] = owner;
        ackedBytes[acks] = len;
        acks++;
    }

    /**
     * Appends one DATA frame whose payload the frame loop owns (a chunk it read of a file body):
     * no task waits for it, so nothing is acknowledged.
     */
    void ownData(int streamId, byte[] src, int off, int len, boolean endStream) {
        header(len, FrameType.DATA, endStream ? FrameType.FLAG_END_STREAM : 0, streamId);
        if (len < COPY_LIMIT) {
            copy(src, off, len);
        } else {
            cut();
            segments.add(ByteBuffer.wrap(src, off, len));
            bytes += len;
        }
    }

    /**
     * Appends a header block as one HEADERS frame and as many CONTINUATION frames as
     * {@code maxFrameSize} (the peer's) needs; END_STREAM goes on the HEADERS frame.
     */
    void headerBlock(int streamId, byte[] block, int len, boolean endStream, int maxFrameSize) {
        int off = 0;
        boolean first = true;
        do {
            int n = Math.min(len - off, maxFrameSize);
            boolean endHeaders = off + n == len;
            int flags = (endHeaders ? FrameType.FLAG_END_HEADERS : 0)
                    | (first && endStream ? FrameType.FLAG_END_STREAM : 0);
            header(n, first ? FrameType.HEADERS : FrameType.CONTINUATION, flags, streamId);
            copy(block, off, n);
            off += n;
            first = false;
        } while (off < len);
    }

    void rstStream(int streamId, int code) {
        header(4, FrameType.RST_STREAM, 0, streamId);
        int32(code);
    }

    void windowUpdate(int streamId, int increment) {
        header(4, FrameType.WINDOW_UPDATE, 0, streamId);
        int32(increment);
    }

    void goAway(int lastStreamId, int code) {
        header(8, FrameType.GOAWAY, 0, 0);
        int32(lastStreamId & 0x7fffffff);
        int32(code);
    }

    void pingAck(byte[] payload) {
        header(8, FrameType.PING, FrameType.FLAG_ACK, 0);
        copy(payload, 0, 8);
    }

    void settingsAck() {
        header(0, FrameType.SETTINGS, FrameType.FLAG_ACK, 0);
    }

    /** A SETTINGS frame from {@code (id, value)} pairs. */
    void settings(int... idValues) {
        header(idValues.length / 2 * 6, FrameType.SETTINGS, 0, 0);
        for (int i = 0; i < idValues.length; i += 2) {
            int16(idValues[i]);
            int32(idValues[i + 1]);
        }
    }

    /** Ends the current scratch segment (before a referenced payload, or at flush). */
    private void cut() {
        if (pos > segmentStart) {
            segments.add(ByteBuffer.wrap(scratch, segmentStart, pos - segmentStart));
        }
        segmentStart = pos;
    }

    private void ensure(int n) {
        if (pos + n <= scratch.length) {
            return;
        }
        cut();
        // Earlier segments still reference the old array: continue in a fresh one.
        scratch = new byte[Math.max(CHUNK, n)];
        segmentStart = 0;
        pos = 0;
    }
}
