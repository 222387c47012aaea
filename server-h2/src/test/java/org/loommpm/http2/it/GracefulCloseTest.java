package org.loommpm.http2.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.FutureTask;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.loommpm.api.Handler;

/** Close ordering: GOAWAY first, every started stream answered, then the close. */
class GracefulCloseTest {
    final CountDownLatch release = new CountDownLatch(1);
    final AtomicInteger started = new AtomicInteger();
    final Handler app = (req, res) -> {
        if (req.path().equals("/block")) {
            started.incrementAndGet();
            release.await(10, TimeUnit.SECONDS);
            res.send("released");
        } else {
            res.send("ok");
        }
    };

    @Test
    void serverStopAnswersInFlightStreamsAfterGoAway() throws Exception {
        H2Server server = H2Server.start(app);
        try (FrameClient c = FrameClient.open(server.port())) {
            c.headers(1, true, FrameClient.get("/block"));
            c.headers(3, true, FrameClient.get("/block"));
            TestWait.until("both handlers running", 5, () -> started.get() == 2);
            // A FutureTask: get() rethrows a failed stop.
            FutureTask<Void> stopper = new FutureTask<>(server::stop, null);
            Thread.ofPlatform().start(stopper);
            FrameClient.Frame goAway = c.expect(FrameClient.GOAWAY);
            assertEquals(0, goAway.errorCode());
            assertEquals(3, goAway.int32(0), "last stream id");
            c.headers(5, true, FrameClient.get("/")); // after GOAWAY: not served
            release.countDown();
            assertEquals("released", c.response(1).text());
            assertEquals("released", c.response(3).text());
            assertTrue(c.closedByServer(), "closed once both streams were answered");
            stopper.get(15, TimeUnit.SECONDS);
            assertEquals(2, server.stats().streamsStarted());
            assertEquals(2, server.stats().responsesCompleted());
        }
    }

    @Test
    void clientGoAwayLetsInFlightStreamsFinish() throws Exception {
        try (H2Server server = H2Server.start(app); FrameClient c = FrameClient.open(server.port())) {
            c.headers(1, true, FrameClient.get("/block"));
            TestWait.until("handler running", 5, () -> started.get() == 1);
            c.frame(FrameClient.GOAWAY, 0, 0, new byte[8]);
            release.countDown();
            assertEquals("released", c.response(1).text());
            assertTrue(c.closedByServer());
        }
    }

    @Test
    void idleConnectionEndsWithGoAwayAtKeepAliveTimeout() throws Exception {
        try (H2Server server = H2Server.start(app, s -> s, b -> b.keepAliveTimeout(Duration.ofMillis(300)));
             FrameClient c = FrameClient.open(server.port())) {
            c.headers(1, true, FrameClient.get("/"));
            assertEquals("ok", c.response(1).text());
            FrameClient.Frame goAway = c.expect(FrameClient.GOAWAY);
            assertEquals(0, goAway.errorCode());
            assertEquals(1, goAway.int32(0));
            assertTrue(c.closedByServer());
        }
    }
}
