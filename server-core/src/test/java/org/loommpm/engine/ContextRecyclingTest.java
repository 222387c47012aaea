package org.loommpm.engine;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertSame;

import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

class ContextRecyclingTest {

    @Test
    void anEmptyListAllocatesAndCountsAMiss() {
        ContextRecycling contexts = new ContextRecycling(2, 512);
        ConnectionContext ctx = contexts.take();
        assertEquals(512, ctx.in().capacity());
        assertEquals(0, ctx.in().remaining());
        assertEquals(1, contexts.misses());
        assertEquals(0, contexts.hits());
    }

    @Test
    void aGivenContextIsTakenAgainClearedAndCountsAHit() {
        ContextRecycling contexts = new ContextRecycling(2, 512);
        ConnectionContext ctx = contexts.take();
        ctx.growIn(4096).limit(100);
        ctx.out().put("HTTP/1.1 200 OK\r\n".getBytes(StandardCharsets.US_ASCII));
        contexts.give(ctx);
        assertEquals(1, contexts.size());

        ConnectionContext again = contexts.take();
        assertSame(ctx, again);
        assertEquals(512, again.in().capacity(), "back on its standard read buffer");
        assertEquals(0, again.in().remaining());
        assertEquals(0, again.out().position());
        assertEquals(1, contexts.hits());
        assertEquals(1, contexts.misses());
        assertEquals(0, contexts.size());
    }

    @Test
    void aFullListDropsAndCountsIt() {
        ContextRecycling contexts = new ContextRecycling(1, 256);
        ConnectionContext a = contexts.take();
        ConnectionContext b = contexts.take();
        assertNotSame(a, b);
        contexts.give(a);
        contexts.give(b);
        assertEquals(1, contexts.size());
        assertEquals(1, contexts.drops());
        assertSame(a, contexts.take());
    }
}
