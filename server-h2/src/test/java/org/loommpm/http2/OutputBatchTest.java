package org.loommpm.http2;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.loommpm.http2.frame.FrameType;

/**
 * The frame serialiser: header blocks cut into HEADERS and CONTINUATION frames at the peer's
 * frame size, small payloads copied and large ones referenced in the gathered buffers.
 */
class OutputBatchTest {
    /** A frame as read back from the gathered bytes. */
    private record Frame(int length, int type, int flags, int stream, byte[] payload) {
    }

    private static List<Frame> frames(ByteBuffer[] gathered) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        for (ByteBuffer b : gathered) {
            byte[] copy = new byte[b.remaining()];
            b.duplicate().get(copy);
            out.writeBytes(copy);
        }
        byte[] a = out.toByteArray();
        List<Frame> frames = new ArrayList<>();
        for (int p = 0; p < a.length; ) {
            int len = (a[p] & 0xff) << 16 | (a[p + 1] & 0xff) << 8 | (a[p + 2] & 0xff);
            int sid = (a[p + 5] & 0x7f) << 24 | (a[p + 6] & 0xff) << 16 | (a[p + 7] & 0xff) << 8 | (a[p + 8] & 0xff);
            frames.add(new Frame(len, a[p + 3], a[p + 4], sid, Arrays.copyOfRange(a, p + 9, p + 9 + len)));
            p += 9 + len;
        }
        return frames;
    }

    @Test
    void aHeaderBlockLargerThanTheFrameSizeContinues() {
        OutputBatch batch = new OutputBatch();
        byte[] block = new byte[40_000];
        Arrays.fill(block, (byte) 'h');
        batch.headerBlock(5, block, block.length, true, 16_384);
        List<Frame> f = frames(batch.gather());
        assertEquals(3, f.size());
        assertEquals(new Frame(16_384, FrameType.HEADERS, FrameType.FLAG_END_STREAM, 5, f.get(0).payload()), f.get(0));
        assertEquals(new Frame(16_384, FrameType.CONTINUATION, 0, 5, f.get(1).payload()), f.get(1));
        assertEquals(new Frame(40_000 - 2 * 16_384, FrameType.CONTINUATION, FrameType.FLAG_END_HEADERS, 5,
                f.get(2).payload()), f.get(2));
        assertEquals(40_000 + 3 * 9, batch.size());
    }

    @Test
    void aSmallBlockIsOneHeadersFrameWithEndHeaders() {
        OutputBatch batch = new OutputBatch();
        batch.headerBlock(1, "block".getBytes(), 5, false, 16_384);
        List<Frame> f = frames(batch.gather());
        assertEquals(1, f.size());
        assertEquals(FrameType.FLAG_END_HEADERS, f.get(0).flags());
        assertArrayEquals("block".getBytes(), f.get(0).payload());
    }

    @Test
    void largeDataIsReferencedNotCopied() {
        OutputBatch batch = new OutputBatch();
        Stream s = new Stream(null, 3, null, 65_535, 65_535, -1);
        byte[] body = new byte[4096];
        Arrays.fill(body, (byte) 'b');
        batch.windowUpdate(0, 1000);
        batch.data(s, body, 0, body.length, false);
        batch.data(s, "end".getBytes(), 0, 3, true);
        ByteBuffer[] gathered = batch.gather();
        assertEquals(3, gathered.length);
        assertSame(body, gathered[1].array());
        List<Frame> f = frames(gathered);
        assertEquals(List.of(FrameType.WINDOW_UPDATE, FrameType.DATA, FrameType.DATA),
                f.stream().map(x -> x.type()).toList());
        assertEquals(FrameType.FLAG_END_STREAM, f.get(2).flags());
        assertTrue(Arrays.equals(body, f.get(1).payload()));
        batch.discard();
        assertEquals(0, batch.size());
        assertTrue(batch.isEmpty());
    }
}
