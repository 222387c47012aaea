package org.loommpm.http2.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * WINDOW_UPDATE and RST_STREAM floods (issue #23, 3): frames that cost the server work and the
 * client nothing are bounded like SETTINGS and PING floods (GOAWAY ENHANCE_YOUR_CALM), while the
 * same frames at a real client's pace (one late frame per closed stream, large increments) are
 * not.
 */
class FloodTest {
    static final int ENHANCE_YOUR_CALM = 11;
    static H2Server server;

    @BeforeAll
    static void start() throws Exception {
        server = H2Server.start((req, res) -> {
            if (req.path().equals("/big")) {
                res.send(new byte[1 << 20]);
            } else {
                res.send("ok");
            }
        });
    }

    @AfterAll
    static void stop() {
        server.close();
    }

    @FunctionalInterface
    interface Flood {
        void send(FrameClient c, int i) throws IOException;
    }

    private static void expectCalm(Flood flood) throws Exception {
        try (FrameClient c = FrameClient.open(server.port())) {
            try {
                for (int i = 0; i < 5_000; i++) {
                    flood.send(c, i);
                }
            } catch (IOException e) {
                // the server may close while we still write
            }
            assertEquals(ENHANCE_YOUR_CALM, c.expectGoAway());
            assertTrue(c.closedByServer());
        }
    }

    @Test
    void connectionWindowUpdatesOfOneAreAFlood() throws Exception {
        expectCalm((c, i) -> c.windowUpdate(0, 1));
    }

    @Test
    void streamWindowUpdatesOfOneAreAFlood() throws Exception {
        expectCalm((c, i) -> {
            if (i == 0) {
                c.settings(4, 0); // SETTINGS_INITIAL_WINDOW_SIZE 0: the response waits for window
                c.headers(1, true, FrameClient.get("/big"));
            }
            c.windowUpdate(1, 1);
        });
    }

    @Test
    void resetsOfClosedStreamsAreAFlood() throws Exception {
        expectCalm((c, i) -> {
            if (i == 0) {
                c.headers(1, true, FrameClient.get("/"));
                c.response(1);
            }
            c.rst(1, 8);
        });
    }

    @Test
    void windowUpdatesOfClosedStreamsAreAFlood() throws Exception {
        expectCalm((c, i) -> {
            if (i == 0) {
                c.headers(1, true, FrameClient.get("/"));
                c.response(1);
            }
            c.windowUpdate(1, 65_535);
        });
    }

    @Test
    void aBusyClientsLateFramesAreNotAFlood() throws Exception {
        long tripped = server.stats().guardsTripped();
        try (FrameClient c = FrameClient.open(server.port())) {
            // Each stream closed, then one WINDOW_UPDATE and one cancel crossing its end: 1,000 of
            // each in well under a second, five times the control-frame rate.
            for (int id = 1; id < 1_000; id += 2) {
                c.headers(id, true, FrameClient.get("/"));
                assertEquals("ok", c.response(id).text());
                c.windowUpdate(id, 32_768);
                c.rst(id, 8);
            }
            c.headers(1_001, true, FrameClient.get("/big"));
            assertEquals(1 << 20, c.response(1_001).body().length);
            assertEquals(tripped, server.stats().guardsTripped());
        }
    }
}
