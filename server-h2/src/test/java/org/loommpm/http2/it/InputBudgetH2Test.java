package org.loommpm.http2.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.loommpm.http2.it.FrameClient.CONTINUATION;
import static org.loommpm.http2.it.FrameClient.HEADERS;

import org.junit.jupiter.api.Test;
import org.loommpm.api.Handler;
import org.loommpm.config.InputBudgetSettings;
import org.loommpm.spi.InputBudget;
import org.loommpm.testsupport.TestServers;

/**
 * HTTP/2 header blocks are charged to the child's input budget while they arrive: a connection
 * that holds most of it in a block it never ends leaves room for small requests (each of whose
 * decoded lists is released when its stream ends), a block that does not fit ends its connection
 * with ENHANCE_YOUR_CALM, and everything comes back when the connections end.
 */
class InputBudgetH2Test {
    private static final int FRAME = 16_384;

    @Test
    void headerBlocksOverTheBudgetAreRefused() throws Exception {
        Handler app = (req, res) -> res.send("ok");
        try (H2Server server = H2Server.start(app, s -> s.withMaxHeaderListSize(4 << 20).withMaxContinuationFrames(1_000),
                b -> b.inputBudget(InputBudgetSettings.DEFAULTS.withBytes(1 << 20)))) {
            InputBudget budget = server.supervisor().children().getFirst().inputBudget();
            long refusedBefore = budget.refusals(InputBudget.Consumer.HEADER_BLOCK);
            long held = 60L * FRAME; // 960 KiB of a block whose END_HEADERS never comes
            try (FrameClient hog = FrameClient.open(server.port())) {
                for (int i = 0; i < 60; i++) {
                    hog.frame(i == 0 ? HEADERS : CONTINUATION, 0, 1, new byte[FRAME]);
                }
                TestServers.waitFor("the unfinished block held", 10, () -> budget.used() == held);

                try (FrameClient normal = FrameClient.open(server.port())) {
                    for (int stream = 1; stream <= 5; stream += 2) {
                        normal.headers(stream, true, FrameClient.get("/"));
                        assertEquals("ok", normal.response(stream).text(), "small requests fit beside it");
                    }
                }
                TestServers.waitFor("the small requests' lists released", 10, () -> budget.used() == held);

                try (FrameClient big = FrameClient.open(server.port())) {
                    try {
                        for (int i = 0; i < 6; i++) { // 96 KiB: more than the 64 KiB left
                            big.frame(i == 0 ? HEADERS : CONTINUATION, 0, 1, new byte[FRAME]);
                        }
                    } catch (java.io.IOException e) {
                        // the server may end the connection while the last frames are written
                    }
                    assertEquals(LimitsTest.ENHANCE_YOUR_CALM, big.expectGoAway());
                    assertTrue(big.closedByServer());
                }
                assertEquals(refusedBefore + 1, budget.refusals(InputBudget.Consumer.HEADER_BLOCK));
            }
            TestServers.waitFor("the hog's block released when its connection ended", 10, () -> budget.used() == 0);
            assertTrue(budget.highWater() <= budget.limit());
        }
    }

    /**
     * Request bodies received and not yet read are charged per stream: the stream window bounds
     * each (64 KiB), not the 100 streams of a connection, so 20 streams whose handler reads
     * nothing exhaust a 1 MiB budget and the stream whose DATA does not fit is reset with
     * ENHANCE_YOUR_CALM; what the others held comes back when they end.
     */
    @Test
    void unreadBodiesOverTheBudgetResetTheirStream() throws Exception {
        java.util.concurrent.CountDownLatch release = new java.util.concurrent.CountDownLatch(1);
        Handler app = (req, res) -> {
            release.await(10, java.util.concurrent.TimeUnit.SECONDS); // reads nothing meanwhile
            res.send("done");
        };
        try (H2Server server = H2Server.start(app, s -> s, b -> b.inputBudget(InputBudgetSettings.DEFAULTS.withBytes(1 << 20)))) {
            InputBudget budget = server.supervisor().children().getFirst().inputBudget();
            try (FrameClient c = FrameClient.open(server.port())) {
                for (int stream = 1; stream <= 39; stream += 2) {
                    c.headers(stream, false, LimitsTest.POST);
                    for (int off = 0; off < 65_535; off += FRAME) {
                        c.frame(FrameClient.DATA, 0, stream, new byte[Math.min(FRAME, 65_535 - off)]);
                    }
                }
                FrameClient.Frame rst = c.expect(FrameClient.RST_STREAM);
                assertEquals(LimitsTest.ENHANCE_YOUR_CALM, rst.errorCode(), "stream " + rst.stream());
                assertTrue(budget.refusals(InputBudget.Consumer.STREAM_BUFFER) > 0);
                assertTrue(budget.used() <= budget.limit());
                release.countDown();
                c.headers(41, true, FrameClient.get("/"));
                assertEquals("done", c.response(41).text(), "the connection goes on");
            }
            TestServers.waitFor("every unread body released with its stream", 10, () -> budget.used() == 0);
        }
    }
}
