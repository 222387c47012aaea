package org.loommpm.http2;

import java.nio.ByteBuffer;
import org.loommpm.http2.frame.FrameType;

/**
 * Benchmark fixture, not API: HTTP/2's frame writer ({@link OutputBatch}) with a few bare streams
 * (no session: all the batch touches of a stream), for the JMH benchmarks (module benchmarks;
 * org.loommpm.h2 exports no package). Each method is the batch's own, one call deep.
 */
public final class Http2BenchFixture {
    private final OutputBatch batch = new OutputBatch();
    private final Stream[] streams;

    /**
     * @param streams how many bare streams (ids {@code firstId}, {@code firstId + 2} …, default
     *                windows, no body limit)
     */
    public Http2BenchFixture(int streams, int firstId) {
        this.streams = new Stream[streams];
        for (int i = 0; i < streams; i++) {
            this.streams[i] = new Stream(null, firstId + 2 * i, null, FrameType.DEFAULT_WINDOW,
                    FrameType.DEFAULT_WINDOW, -1);
        }
    }

    /** Stream {@code index}'s id. */
    public int streamId(int index) {
        return streams[index].id();
    }

    /** A frame header. */
    public void header(int length, int type, int flags, int streamId) {
        batch.header(length, type, flags, streamId);
    }

    /** Bytes, copied. */
    public void copy(byte[] src, int off, int len) {
        batch.copy(src, off, len);
    }

    /** A header block as HEADERS (and CONTINUATION frames beyond {@code maxFrameSize}). */
    public void headerBlock(int streamId, byte[] block, int len, boolean endStream, int maxFrameSize) {
        batch.headerBlock(streamId, block, len, endStream, maxFrameSize);
    }

    /** One DATA frame of stream {@code index}, its payload referenced, not copied. */
    public void data(int index, byte[] src, int off, int len, boolean endStream) {
        batch.data(streams[index], src, off, len, endStream);
    }

    /** A WINDOW_UPDATE frame. */
    public void windowUpdate(int streamId, int increment) {
        batch.windowUpdate(streamId, increment);
    }

    /** A SETTINGS frame from {@code (id, value)} pairs. */
    public void settings(int... idValues) {
        batch.settings(idValues);
    }

    /** The buffers of one gathering write. */
    public ByteBuffer[] gather() {
        return batch.gather();
    }

    /** Empties the batch, as after the write. */
    public void discard() {
        batch.discard();
    }
}
