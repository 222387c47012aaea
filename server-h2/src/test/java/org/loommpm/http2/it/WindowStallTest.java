package org.loommpm.http2.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.loommpm.api.Handler;

/**
 * Zero-window attack (issue #23, 1): clients that grant no flow-control window for many large
 * responses. A stream waiting for window must hold no worker slot, is reset after
 * {@code H2StallTimeout} without progress, and a normal client keeps being answered meanwhile.
 */
class WindowStallTest {
    static final int CANCEL = 8;
    static final int SETTINGS_INITIAL_WINDOW_SIZE = 4;
    static Path file;

    final Handler app = (req, res) -> {
        if (req.path().equals("/file")) {
            res.sendFile(file);
        } else if (req.path().equals("/stream")) {
            try (var out = res.outputStream()) {
                byte[] piece = new byte[16_384];
                for (int i = 0; i < 64; i++) {
                    out.write(piece);
                }
            }
        } else {
            res.send("ok");
        }
    };

    @BeforeAll
    static void makeFile() throws IOException {
        file = Files.createTempFile("loom-stall", ".bin");
        Files.write(file, new byte[1 << 20]);
    }

    @AfterAll
    static void removeFile() throws IOException {
        Files.deleteIfExists(file);
    }

    /** Opens a connection granting no window and {@code streams} requests for a 1 MiB body on it. */
    private static FrameClient stall(int port, int streams, String path) throws IOException {
        FrameClient c = FrameClient.open(port);
        c.settings(SETTINGS_INITIAL_WINDOW_SIZE, 0);
        for (int i = 0; i < streams; i++) {
            c.headers(1 + 2 * i, true, FrameClient.get(path));
        }
        return c;
    }

    private static FrameClient stall(int port, int streams) throws IOException {
        return stall(port, streams, "/file");
    }

    @Test
    void stalledFileStreamsHoldNoWorkerSlot() throws Exception {
        stalledStreamsHoldNoWorkerSlot("/file");
    }

    @Test
    void stalledStreamedResponsesHoldNoWorkerSlot() throws Exception {
        stalledStreamsHoldNoWorkerSlot("/stream");
    }

    private void stalledStreamsHoldNoWorkerSlot(String path) throws Exception {
        // 8 slots against 3 connections of 20 stalled streams each: before the fix the first 8
        // stalled handlers held every slot and the normal client below waited for Timeout.
        try (H2Server server = H2Server.start(app, s -> s, b -> b.threadsPerChild(8))) {
            List<FrameClient> attackers = new ArrayList<>();
            try {
                for (int i = 0; i < 3; i++) {
                    attackers.add(stall(server.port(), 20, path));
                }
                TestWait.until("60 streams started", 10, () -> server.stats().streamsStarted() >= 60);
                try (FrameClient normal = FrameClient.open(server.port())) {
                    for (int id = 1; id <= 21; id += 2) {
                        normal.headers(id, true, FrameClient.get("/"));
                        assertEquals("ok", normal.response(id).text());
                    }
                    // The stalled streams' responses wait, whole, for their window.
                    normal.headers(23, true, FrameClient.get("/file"));
                    assertEquals(1 << 20, normal.response(23).body().length);
                }
            } finally {
                for (FrameClient c : attackers) {
                    c.close();
                }
            }
        }
    }

    @Test
    void aStreamWithoutWindowIsResetAfterTheStallTimeout() throws Exception {
        try (H2Server server = H2Server.start(app, s -> s.withStallTimeout(Duration.ofSeconds(1)));
             FrameClient c = stall(server.port(), 3)) {
            long start = System.nanoTime();
            for (int id = 1; id <= 5; id += 2) {
                assertEquals(CANCEL, c.expectRst(id));
            }
            long tookMillis = (System.nanoTime() - start) / 1_000_000;
            assertTrue(tookMillis >= 900, "reset after " + tookMillis + " ms");
            assertEquals(3, server.stats().streamsStalled());
            // The connection goes on (a stream that is given window is answered).
            c.headers(7, true, FrameClient.get("/"));
            c.windowUpdate(7, 1024);
            assertEquals("ok", c.response(7).text());
        }
    }

    @Test
    void aStreamThatProgressesIsNotReset() throws Exception {
        try (H2Server server = H2Server.start(app, s -> s.withStallTimeout(Duration.ofSeconds(1)));
             FrameClient c = FrameClient.open(server.port())) {
            c.settings(SETTINGS_INITIAL_WINDOW_SIZE, 0);
            c.autoWindow(false);
            c.headers(1, true, FrameClient.get("/file"));
            // 16 KiB of window every 300 ms: slow, but never stalled for the whole second.
            int received = 0;
            long end = System.nanoTime() + 3_000_000_000L;
            while (System.nanoTime() < end) {
                c.windowUpdate(1, 16_384);
                c.windowUpdate(0, 16_384);
                FrameClient.Frame f = c.expect(FrameClient.DATA);
                received += f.payload().length;
                Thread.sleep(300);
            }
            assertTrue(received >= 8 * 16_384, "received " + received);
            assertEquals(0, server.stats().streamsStalled());
        }
    }
}
