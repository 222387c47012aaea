package org.loommpm.http2.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.loommpm.api.Handler;

/**
 * "MadeYouReset" (CVE-2025-8671, issue #23, 2): a client makes the server reset each stream
 * itself (HEADERS with END_STREAM, then a WINDOW_UPDATE of 0 on the stream, a stream error),
 * so the rapid-reset guard never saw a client RST_STREAM and the reset streams' handlers kept
 * running beyond the concurrency limit. Server resets now count in the guard, and a stream
 * keeps its place in the limit until its handler has returned.
 */
class ServerResetTest {
    static final int PROTOCOL_ERROR = 1, REFUSED_STREAM = 7, ENHANCE_YOUR_CALM = 11;

    final AtomicInteger running = new AtomicInteger();
    final AtomicInteger mostRunning = new AtomicInteger();
    final AtomicInteger started = new AtomicInteger();

    final Handler slow = (req, res) -> {
        started.incrementAndGet();
        mostRunning.accumulateAndGet(running.incrementAndGet(), Math::max);
        try {
            Thread.sleep(300);
            res.send("late");
        } finally {
            running.decrementAndGet();
        }
    };

    @Test
    void resetStreamsKeepTheirPlaceUntilTheirHandlerReturns() throws Exception {
        // A guard loose enough not to trip: the limit alone must bound the running handlers.
        try (H2Server server = H2Server.start(slow, s -> s.withMaxConcurrentStreams(5).withMaxResetsPerSecond(100_000));
             FrameClient c = FrameClient.open(server.port())) {
            for (int id = 1; id <= 19; id += 2) {
                int startedBefore = started.get();
                long refusedBefore = server.stats().streamsRefused();
                c.headers(id, true, FrameClient.get("/slow"));
                // Reset each stream once its handler runs (or it was refused): the handler goes on.
                TestWait.until("stream started or refused", 5, () -> started.get() > startedBefore
                        || server.stats().streamsRefused() > refusedBefore);
                c.windowUpdate(id, 0);
            }
            for (int id = 1; id <= 19; id += 2) {
                int code = c.expectRst(id);
                assertTrue(code == PROTOCOL_ERROR || code == REFUSED_STREAM, "stream " + id + " reset with " + code);
            }
            TestWait.until("the handlers returned", 10, () -> running.get() == 0);
            // Before the fix all 10 ran at once: a reset stream gave its place back at once.
            assertEquals(5, mostRunning.get());
            assertEquals(5, started.get());
            assertEquals(5, server.stats().streamsRefused());
            // The places come back once the handlers returned.
            c.headers(21, true, FrameClient.get("/slow"));
            assertEquals("late", c.response(21).text());
        }
    }

    @Test
    void serverResetsTripTheRapidResetGuard() throws Exception {
        try (H2Server server = H2Server.start((req, res) -> res.send("ok"), s -> s.withMaxResetsPerSecond(10)
                .withMaxConcurrentStreams(5));
             FrameClient c = FrameClient.open(server.port())) {
            try {
                for (int id = 1; id < 2000; id += 2) {
                    c.headers(id, true, FrameClient.get("/"));
                    c.windowUpdate(id, 0);
                }
            } catch (IOException e) {
                // the server may close while we still write
            }
            assertEquals(ENHANCE_YOUR_CALM, c.expectGoAway());
            assertTrue(c.closedByServer());
            assertEquals(1, server.stats().guardsTripped());
        }
    }
}
