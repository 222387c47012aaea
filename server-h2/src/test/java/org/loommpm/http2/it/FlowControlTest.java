package org.loommpm.http2.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.loommpm.http2.it.FrameClient.DATA;
import static org.loommpm.http2.it.FrameClient.END_STREAM;
import static org.loommpm.http2.it.FrameClient.HEADERS;
import static org.loommpm.http2.it.FrameClient.SETTINGS;
import static org.loommpm.http2.it.FrameClient.WINDOW_UPDATE;

import com.twitter.hpack.Decoder;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.loommpm.api.Handler;

/**
 * Flow control and SETTINGS changes mid-connection (RFC 9113 §5.2, §6.5.2, §6.9; RFC 7541 §4.2),
 * with raw frames: what h2spec would check, and what it does not (fairness, a window announced
 * after the client opened a stream).
 */
class FlowControlTest {
    static final int SETTINGS_HEADER_TABLE_SIZE = 0x1, SETTINGS_INITIAL_WINDOW_SIZE = 0x4;
    static final String[] POST = {":method", "POST", ":scheme", "http", ":path", "/read", ":authority", "x"};

    static Path file;

    final Handler app = (req, res) -> {
        switch (req.path()) {
            case "/read" -> res.send("read " + req.bodyBytes().length);
            case "/long" -> res.sendFile(file); // one item, always pending until its end
            case "/short" -> res.send(new byte[100_000]);
            case "/fail-after-head" -> {
                java.io.OutputStream out = res.outputStream();
                out.write(new byte[1000]);
                out.flush();
                throw new IllegalStateException("boom after the head (expected by the test)");
            }
            default -> res.header("x-field", "some value").send("ok");
        }
    };

    @BeforeAll
    static void makeFile() throws IOException {
        file = Files.createTempFile("loom-flow", ".bin");
        Files.write(file, new byte[4 << 20]);
    }

    @AfterAll
    static void removeFile() throws IOException {
        Files.deleteIfExists(file);
    }

    /**
     * RFC 7541 §4.2: the client's table went to 0 (its decoder evicted everything) and back to
     * 4,096 before the next response: the smallest size must be signalled, then the final one.
     */
    @Test
    void tableSizeLoweredAndRaisedAgainIsSignalled() throws Exception {
        try (H2Server server = H2Server.start(app); FrameClient c = FrameClient.open(server.port())) {
            Decoder decoder = new Decoder(1 << 20, 4096);
            c.headers(1, true, FrameClient.get("/"));
            assertEquals("some value", decode(decoder, headersOf(c, 1)).get("x-field"));
            c.settings(SETTINGS_HEADER_TABLE_SIZE, 0, SETTINGS_HEADER_TABLE_SIZE, 4096);
            decoder.setMaxHeaderTableSize(0);
            decoder.setMaxHeaderTableSize(4096);
            c.headers(3, true, FrameClient.get("/"));
            Map<String, String> second = decode(decoder, headersOf(c, 3));
            assertEquals("200", second.get(":status"));
            assertEquals("some value", second.get("x-field"));
        }
    }

    /**
     * The connection window, not the streams', is what the client opens slowly (one frame's worth
     * at a time): a long response must not take it every time while a short one waits, which
     * would then be reset by H2StallTimeout though the client reads all along.
     */
    /**
     * A handler that fails after its head went out gets its stream reset at once, not behind
     * DATA waiting for a window the client never grants (H2StallTimeout, 60 s, was the bound).
     */
    @Test
    void aResetDoesNotWaitBehindBlockedData() throws Exception {
        try (H2Server server = H2Server.start(app); FrameClient c = FrameClient.open(server.port())) {
            c.settings(SETTINGS_INITIAL_WINDOW_SIZE, 0); // no DATA may go out
            c.headers(1, true, FrameClient.get("/fail-after-head"));
            long start = System.nanoTime();
            assertEquals(2, c.expectRst(1), "INTERNAL_ERROR");
            assertTrue(System.nanoTime() - start < 5_000_000_000L, "reset within 5 s");
        }
    }

    @Test
    void theConnectionWindowIsSharedRoundRobin() throws Exception {
        try (H2Server server = H2Server.start(app); FrameClient c = FrameClient.open(server.port())) {
            c.settings(SETTINGS_INITIAL_WINDOW_SIZE, 1 << 30); // only the connection window limits
            c.headers(1, true, FrameClient.get("/long"));
            int received = 0;
            Map<Integer, Integer> bodies = new LinkedHashMap<>();
            boolean shortRequested = false;
            int ended = 0;
            while (ended == 0) {
                FrameClient.Frame f = c.read();
                if (f.type() != DATA) {
                    continue;
                }
                bodies.merge(f.stream(), f.payload().length, Integer::sum);
                if (!shortRequested) {
                    c.headers(3, true, FrameClient.get("/short"));
                    shortRequested = true;
                }
                int before = received;
                received += f.payload().length;
                if (before < 65_535 && received >= 65_535) {
                    c.windowUpdate(0, 16_384); // the initial window is used up: one frame at a time from now
                } else if (before >= 65_535 && f.payload().length > 0) {
                    c.windowUpdate(0, f.payload().length);
                }
                if (f.has(END_STREAM)) {
                    ended = f.stream();
                }
            }
            assertEquals(3, ended, "the short response ends first; received " + bodies);
            assertTrue(bodies.get(1) < 1 << 20, "the long one had its share only: " + bodies);
        }
    }

    /**
     * A client that opens a stream before it has the server's SETTINGS counts the announced
     * H2WindowSize for it once they arrive (RFC 9113 §6.9.2): the server must return window
     * as the handler reads well before the 65,535 bytes it assumed for the stream.
     */
    @Test
    void windowIsReturnedWhenTheAnnouncedWindowIsSmallerThanTheDefault() throws Exception {
        try (H2Server server = H2Server.start(app, s -> s.withWindowSize(16_384));
             FrameClient c = new FrameClient(server.port())) {
            c.raw(FrameClient.PREFACE);
            c.settings();
            c.headers(1, false, POST); // before the server's SETTINGS: the stream starts at 65,535
            FrameClient.Frame settings = c.expect(SETTINGS);
            assertEquals(0, settings.flags());
            c.frame(SETTINGS, FrameClient.ACK, 0, new byte[0]);
            c.data(1, new byte[16_384], false); // the stream's whole window now (16,384)
            int increment = 0;
            while (increment == 0) {
                FrameClient.Frame f = c.read();
                if (f.type() == WINDOW_UPDATE && f.stream() == 1) {
                    increment = f.int32(0);
                }
            }
            assertTrue(increment >= 8_192, "increment " + increment);
            c.data(1, new byte[8_192], true);
            assertEquals("read 24576", c.response(1).text());
        }
    }

    /** Reads up to the HEADERS frame of {@code stream} (END_HEADERS: the blocks here are small). */
    private static byte[] headersOf(FrameClient c, int stream) throws IOException {
        for (;;) {
            FrameClient.Frame f = c.read();
            if (f.type() == HEADERS && f.stream() == stream) {
                return f.payload();
            }
        }
    }

    private static Map<String, String> decode(Decoder decoder, byte[] block) throws IOException {
        Map<String, String> fields = new LinkedHashMap<>();
        decoder.decode(new ByteArrayInputStream(block), (n, v, s) -> fields.put(
                new String(n, StandardCharsets.ISO_8859_1), new String(v, StandardCharsets.ISO_8859_1)));
        decoder.endHeaderBlock();
        return fields;
    }
}
