package org.loommpm.proxy;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertSame;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

/**
 * What a tunnel's reader puts in the client's queue ({@link TunnelRelay#forQueue}): the queue's budget
 * counts bytes, so a short read must not park a whole read buffer there (a backend trickling
 * one-byte segments to a slow client would hold 16 KiB per byte). The relaying itself is
 * {@link ProxyTunnelTest}'s.
 */
class TunnelQueueTest {
    private static ByteBuffer read(int capacity, String bytes) {
        ByteBuffer b = ByteBuffer.allocate(capacity);
        b.put(bytes.getBytes(StandardCharsets.ISO_8859_1));
        return b.flip();
    }

    @Test
    void aShortReadIsQueuedAsACopyOfItsSize() {
        ByteBuffer b = read(16 * 1024, "x");
        ByteBuffer queued = TunnelRelay.forQueue(b);
        assertNotSame(b, queued, "the read buffer stays the reader's, for the next read");
        assertEquals(1, queued.capacity());
        assertEquals("x", StandardCharsets.ISO_8859_1.decode(queued).toString());
    }

    @Test
    void aReadFillingHalfTheBufferIsQueuedAsItIs() {
        ByteBuffer b = read(8, "abcd");
        assertSame(b, TunnelRelay.forQueue(b));
        assertEquals(4, b.remaining());
        ByteBuffer small = read(8, "abc");
        assertEquals(3, TunnelRelay.forQueue(small).capacity());
    }
}
