package org.loommpm.http2.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.FutureTask;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.loommpm.api.Handler;

/**
 * Stream identifiers at the edges of RFC 9113's state machine: a stream our reset closed while it
 * opened, streams a client opens after our graceful GOAWAY, and the order of a padded HEADERS
 * frame's size checks. Each case ended the whole connection (or answered the wrong error) before.
 */
class StreamIdEdgeTest {
    static final int PROTOCOL_ERROR = 1, FRAME_SIZE_ERROR = 6;
    final CountDownLatch release = new CountDownLatch(1);
    final AtomicInteger blocked = new AtomicInteger();
    final Handler app = (req, res) -> {
        if (req.path().equals("/block")) {
            blocked.incrementAndGet();
            release.await(10, TimeUnit.SECONDS);
            res.send("released");
        } else {
            res.send("ok");
        }
    };

    /** A HEADERS frame with the PRIORITY flag whose stream depends on {@code dependency}. */
    private static byte[] prioritized(FrameClient c, int dependency, String... fields) throws Exception {
        ByteArrayOutputStream p = new ByteArrayOutputStream();
        p.write(FrameClient.int32(dependency));
        p.write(16); // weight
        p.write(c.block(fields));
        return p.toByteArray();
    }

    @Test
    void aStreamResetForDependingOnItselfIsClosedNotIdle() throws Exception {
        try (H2Server server = H2Server.start(app); FrameClient c = FrameClient.open(server.port())) {
            c.frame(FrameClient.HEADERS, FrameClient.END_HEADERS | FrameClient.PRIORITY_FLAG, 1,
                    prioritized(c, 1, FrameClient.get("/")));
            assertEquals(PROTOCOL_ERROR, c.expectRst(1));
            // Frames the client sent before it saw the reset are ignored, and the stream stays closed.
            c.data(1, new byte[10], true);
            c.headers(1, true, FrameClient.get("/again"));
            c.headers(3, true, FrameClient.get("/"));
            assertEquals("ok", c.response(3).text());
            assertEquals(1, server.stats().streamsStarted(), "only stream 3 started");
        }
    }

    @Test
    void framesOfAStreamOpenedAfterGracefulGoAwayAreIgnored() throws Exception {
        H2Server server = H2Server.start(app);
        try (FrameClient c = FrameClient.open(server.port())) {
            c.headers(1, true, FrameClient.get("/block"));
            TestWait.until("handler running", 5, () -> blocked.get() == 1);
            // A FutureTask: get() rethrows a failed stop.
            FutureTask<Void> stopper = new FutureTask<>(server::stop, null);
            Thread.ofPlatform().start(stopper);
            FrameClient.Frame goAway = c.expect(FrameClient.GOAWAY);
            assertEquals(0, goAway.errorCode());
            assertEquals(1, goAway.int32(0), "last stream id");
            c.headers(3, false, FrameClient.get("/"));
            c.data(3, new byte[10], false);
            c.windowUpdate(3, 100);
            c.data(3, new byte[10], true);
            release.countDown();
            assertEquals("released", c.response(1).text());
            assertTrue(c.closedByServer(), "closed once stream 1 was answered");
            stopper.get(15, TimeUnit.SECONDS);
            assertEquals(1, server.stats().streamsStarted());
        } finally {
            release.countDown();
            server.stop();
        }
    }

    @Test
    void anErrorAfterGracefulGoAwayNamesTheSameLastStream() throws Exception {
        H2Server server = H2Server.start(app);
        try (FrameClient c = FrameClient.open(server.port())) {
            c.headers(1, true, FrameClient.get("/block"));
            TestWait.until("handler running", 5, () -> blocked.get() == 1);
            // A FutureTask: get() rethrows a failed stop.
            FutureTask<Void> stopper = new FutureTask<>(server::stop, null);
            Thread.ofPlatform().start(stopper);
            assertEquals(1, c.expect(FrameClient.GOAWAY).int32(0));
            c.headers(3, false, FrameClient.get("/"));
            c.frame(FrameClient.PING, 0, 0, new byte[7]); // FRAME_SIZE_ERROR: a connection error
            FrameClient.Frame error = c.expect(FrameClient.GOAWAY);
            assertEquals(FRAME_SIZE_ERROR, error.errorCode());
            assertEquals(1, error.int32(0), "a later GOAWAY never names a higher last stream");
            release.countDown();
            stopper.get(15, TimeUnit.SECONDS);
        } finally {
            release.countDown();
            server.stop();
        }
    }

    @Test
    void paddingLongerThanAPrioritizedHeadersFrameIsProtocolError() throws Exception {
        try (H2Server server = H2Server.start(app); FrameClient c = FrameClient.open(server.port())) {
            ByteArrayOutputStream p = new ByteArrayOutputStream();
            p.write(200); // pad length, far more than the frame holds
            p.write(prioritized(c, 0, FrameClient.get("/")));
            c.frame(FrameClient.HEADERS, FrameClient.END_HEADERS | FrameClient.END_STREAM | FrameClient.PADDED
                    | FrameClient.PRIORITY_FLAG, 1, p.toByteArray());
            assertEquals(PROTOCOL_ERROR, c.expectGoAway());
        }
    }

    @Test
    void aPaddedHeadersFrameTooShortForItsPriorityIsFrameSizeError() throws Exception {
        try (H2Server server = H2Server.start(app); FrameClient c = FrameClient.open(server.port())) {
            c.frame(FrameClient.HEADERS, FrameClient.END_HEADERS | FrameClient.PADDED | FrameClient.PRIORITY_FLAG, 1,
                    new byte[] {0, 0, 0, 0});
            assertEquals(FRAME_SIZE_ERROR, c.expectGoAway());
        }
    }
}
