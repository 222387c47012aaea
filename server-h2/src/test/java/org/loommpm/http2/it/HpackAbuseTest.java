package org.loommpm.http2.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.loommpm.http2.it.ConnectionErrorTest.COMPRESSION_ERROR;
import static org.loommpm.http2.it.ConnectionErrorTest.concat;
import static org.loommpm.http2.it.FrameClient.END_HEADERS;
import static org.loommpm.http2.it.FrameClient.END_STREAM;
import static org.loommpm.http2.it.FrameClient.HEADERS;

import java.time.Duration;
import java.util.Arrays;
import java.util.HexFormat;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.loommpm.api.Handler;
import org.loommpm.server.LoomServer;
import org.loommpm.config.Http2Settings;
import org.loommpm.testing.LoomServerSetup;
import org.loommpm.testing.LoomServerTest;

/**
 * HPACK dynamic table size updates a client may not send (RFC 7541 §4.2, §6.3), against a running
 * server: each is a COMPRESSION_ERROR that ends the connection, and the legitimate pair passes.
 */
@LoomServerTest
class HpackAbuseTest {
    /** Announced instead of the default 4,096 so that an update to 4,096 is one above the limit. */
    static final int TABLE_SIZE = 1024;
    static final byte[] UPDATE_TO_0 = {0x20};
    static final byte[] UPDATE_TO_TABLE_SIZE = HexFormat.of().parseHex("3fe107"); // 31 + 0x61 + (7 << 7) = 1024
    static final byte[] UPDATE_TO_4096 = HexFormat.of().parseHex("3fe11f");
    /** The port of the class's server (loom-mpm-testing's extension starts and stops it). */
    static int port;

    @LoomServerSetup
    static Handler app(LoomServer.Builder builder) {
        builder.configure(c -> c.threadsPerChild(64).gracefulShutdownTimeout(Duration.ofSeconds(10))
                .http2(Http2Settings.DEFAULTS.withHeaderTableSize(TABLE_SIZE)));
        return (req, res) -> res.send("ok");
    }

    @BeforeAll
    static void port(LoomServer server) {
        port = server.port();
    }

    /** Issue #23: 8,000 updates in one block were each applied, ~1 ms of CPU per 16 KB frame. */
    @Test
    void sizeUpdateFloodIsACompressionError() throws Exception {
        try (FrameClient c = FrameClient.open(port)) {
            byte[] flood = new byte[8000];
            Arrays.fill(flood, UPDATE_TO_0[0]);
            c.frame(HEADERS, END_HEADERS | END_STREAM, 1, concat(flood, c.block(FrameClient.get("/"))));
            assertEquals(COMPRESSION_ERROR, c.expectGoAway());
            assertTrue(c.closedByServer(), "connection closed after GOAWAY");
        }
    }

    @Test
    void threeSizeUpdatesAreACompressionError() throws Exception {
        try (FrameClient c = FrameClient.open(port)) {
            c.frame(HEADERS, END_HEADERS | END_STREAM, 1,
                    concat(UPDATE_TO_0, UPDATE_TO_0, UPDATE_TO_TABLE_SIZE, c.block(FrameClient.get("/"))));
            assertEquals(COMPRESSION_ERROR, c.expectGoAway());
            assertTrue(c.closedByServer(), "connection closed after GOAWAY");
        }
    }

    /** The smallest size and then the final one (§4.2): the request is answered. */
    @Test
    void twoSizeUpdatesAtTheStartAreAccepted() throws Exception {
        try (FrameClient c = FrameClient.open(port)) {
            c.frame(HEADERS, END_HEADERS | END_STREAM, 1,
                    concat(UPDATE_TO_0, UPDATE_TO_TABLE_SIZE, c.block(FrameClient.get("/"))));
            assertEquals("ok", c.response(1).text());
        }
    }

    /** §6.3: above the announced SETTINGS_HEADER_TABLE_SIZE (4,096 would be fine by default). */
    @Test
    void sizeUpdateAboveTheAnnouncedTableSizeIsACompressionError() throws Exception {
        try (FrameClient c = FrameClient.open(port)) {
            c.frame(HEADERS, END_HEADERS | END_STREAM, 1, concat(UPDATE_TO_4096, c.block(FrameClient.get("/"))));
            assertEquals(COMPRESSION_ERROR, c.expectGoAway());
            assertTrue(c.closedByServer(), "connection closed after GOAWAY");
        }
    }
}
