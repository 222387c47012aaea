package org.loommpm.http2.guard;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Arrays;
import org.junit.jupiter.api.Test;
import org.loommpm.http2.frame.ErrorCode;
import org.loommpm.http2.frame.Http2Error;

/** Each guard on its own, with a synthetic clock. */
class GuardsTest {
    static final long SECOND = 1_000_000_000L;

    @Test
    void tokenBucketRefillsAtItsRate() {
        TokenBucket b = new TokenBucket(10, 5, 0);
        for (int i = 0; i < 5; i++) {
            assertTrue(b.take(0));
        }
        assertFalse(b.take(0));
        assertTrue(b.take(SECOND / 10)); // one token back after 100 ms
        assertFalse(b.take(SECOND / 10));
        for (int i = 0; i < 5; i++) {
            assertTrue(b.take(10 * SECOND)); // refilled to the burst, not beyond
        }
        assertFalse(b.take(10 * SECOND));
    }

    @Test
    void rapidResetAllowsABurstThenTrips() throws Http2Error {
        RapidResetGuard g = new RapidResetGuard(100, 100, 0);
        for (int i = 0; i < 200; i++) {
            g.streamCancelled(0);
        }
        Http2Error e = assertThrows(Http2Error.class, () -> g.streamCancelled(0));
        assertEquals(ErrorCode.ENHANCE_YOUR_CALM, e.code());
        assertTrue(e.isConnectionError());
        // A steady rate below the limit never trips.
        RapidResetGuard steady = new RapidResetGuard(100, 100, 0);
        for (int i = 0; i < 10_000; i++) {
            steady.streamCancelled(i * (SECOND / 50));
        }
    }

    @Test
    void controlFramesAreRateLimited() throws Http2Error {
        ControlFrameGuard g = new ControlFrameGuard(50, 0);
        for (int i = 0; i < 50; i++) {
            g.controlFrame("PING", 0);
        }
        assertEquals(ErrorCode.ENHANCE_YOUR_CALM, assertThrows(Http2Error.class, () -> g.controlFrame("PING", 0)).code());
        g.controlFrame("PING", SECOND);
    }

    /** Ten 431s at once, then one every 6 s; the eleventh at once ends the connection. */
    @Test
    void oversizedHeaderBlocksAreRateLimitedPerMinute() throws Http2Error {
        OversizedHeaderGuard g = new OversizedHeaderGuard(10, 0);
        for (int i = 0; i < 10; i++) {
            g.oversized(0);
        }
        Http2Error e = assertThrows(Http2Error.class, () -> g.oversized(SECOND));
        assertEquals(ErrorCode.ENHANCE_YOUR_CALM, e.code());
        assertTrue(e.isConnectionError());
        g.oversized(7 * SECOND); // one token back after 6 s
        assertThrows(Http2Error.class, () -> g.oversized(8 * SECOND));
        // One every 6 s (and a little) never trips.
        OversizedHeaderGuard steady = new OversizedHeaderGuard(10, 0);
        for (int i = 0; i < 1_000; i++) {
            steady.oversized(i * 61 * SECOND / 10);
        }
    }

    @Test
    void emptyFramesAreRateLimited() throws Http2Error {
        EmptyFrameGuard g = new EmptyFrameGuard(20, 0);
        for (int i = 0; i < 20; i++) {
            g.emptyFrame(0);
        }
        assertEquals(ErrorCode.ENHANCE_YOUR_CALM, assertThrows(Http2Error.class, () -> g.emptyFrame(0)).code());
    }

    @Test
    void headerBlockIsAssembledWithinBounds() throws Http2Error {
        HeaderBlockGuard g = new HeaderBlockGuard(100, 3);
        g.start(new byte[] {1, 2}, 0, 2);
        g.continuation(new byte[] {3}, 0, 1);
        g.continuation(new byte[] {4, 5}, 0, 2);
        assertArrayEquals(new byte[] {1, 2, 3, 4, 5}, Arrays.copyOf(g.block(), g.length()));
        assertEquals(ErrorCode.ENHANCE_YOUR_CALM,
                assertThrows(Http2Error.class, () -> {
                    g.continuation(new byte[1], 0, 1);
                    g.continuation(new byte[1], 0, 1);
                }).code());
        g.start(new byte[60], 0, 60); // a new block starts from zero
        assertEquals(60, g.length());
        assertThrows(Http2Error.class, () -> g.continuation(new byte[41], 0, 41));
    }

    @Test
    void streamLimitCountsPlaces() {
        StreamLimit l = new StreamLimit(2);
        assertTrue(l.tryOpen());
        assertTrue(l.tryOpen());
        assertFalse(l.tryOpen());
        l.release();
        assertTrue(l.tryOpen());
        assertEquals(2, l.active());
    }

    @Test
    void closedStreamsGiveBackTwoLateFramesEach() throws Http2Error {
        ControlFrameGuard g = new ControlFrameGuard(10, 0);
        for (int i = 0; i < 10; i++) {
            g.controlFrame("WINDOW_UPDATE", 0);
        }
        // A busy client: each stream that closes may be followed by two late frames, at any rate.
        for (int i = 0; i < 1_000; i++) {
            g.streamClosed();
            g.controlFrame("WINDOW_UPDATE on a closed stream", 0);
            g.controlFrame("RST_STREAM on a closed stream", 0);
        }
        assertThrows(Http2Error.class, () -> g.controlFrame("WINDOW_UPDATE on a closed stream", 0));
        // Closed streams never raise the allowance above the burst.
        for (int i = 0; i < 100; i++) {
            g.streamClosed();
        }
        for (int i = 0; i < 10; i++) {
            g.controlFrame("RST_STREAM on a closed stream", 0);
        }
        assertThrows(Http2Error.class, () -> g.controlFrame("RST_STREAM on a closed stream", 0));
    }
}
