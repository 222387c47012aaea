package org.loommpm.http2.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.loommpm.http2.it.FrameClient.DATA;
import static org.loommpm.http2.it.FrameClient.RST_STREAM;

import java.time.Duration;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.loommpm.api.Handler;
import org.loommpm.server.LoomServer;
import org.loommpm.config.Http2Settings;
import org.loommpm.testing.LoomServerSetup;
import org.loommpm.testing.LoomServerTest;

/**
 * A client's frames that arrive after the server already answered the stream (issue #23, 6: over
 * TLS, h2spec's second frame often arrives after a fast handler's response) still get the error
 * they deserve, deterministically: the test waits for the whole response before sending them.
 * The stream stays half-closed (local) while its request is open, instead of being reset at once
 * with NO_ERROR, which made later errors invisible.
 */
@LoomServerTest
class LateFramesTest {
    static final int NO_ERROR = 0, PROTOCOL_ERROR = 1, FLOW_CONTROL_ERROR = 3, STREAM_CLOSED = 5;
    static final String[] POST = {":method", "POST", ":scheme", "http", ":path", "/", ":authority", "x"};
    /** The port of the class's server (loom-mpm-testing's extension starts and stops it). */
    static int port;

    @LoomServerSetup
    static Handler app(LoomServer.Builder builder) {
        builder.configure(c -> c.threadsPerChild(64).gracefulShutdownTimeout(Duration.ofSeconds(10))
                .http2(Http2Settings.DEFAULTS.withStallTimeout(Duration.ofSeconds(1))));
        return (req, res) -> res.send("ok");
    }

    @BeforeAll
    static void port(LoomServer server) {
        port = server.port();
    }

    /** Opens stream 1 without END_STREAM and reads its whole response (the handler never reads the body). */
    private static FrameClient answered(String... fields) throws Exception {
        FrameClient c = FrameClient.open(port);
        c.headers(1, false, fields);
        assertEquals("ok", c.response(1).text());
        return c;
    }

    /** The next RST_STREAM on stream 1 (none may come before it with another code). */
    private static int nextRst(FrameClient c) throws Exception {
        FrameClient.Frame f = c.expect(RST_STREAM);
        assertEquals(1, f.stream());
        return f.errorCode();
    }

    @Test
    void windowUpdateOfZeroAfterTheResponse() throws Exception {
        try (FrameClient c = answered(POST)) {
            c.windowUpdate(1, 0);
            assertEquals(PROTOCOL_ERROR, nextRst(c));
        }
    }

    @Test
    void windowOverflowAfterTheResponse() throws Exception {
        try (FrameClient c = answered(POST)) {
            c.windowUpdate(1, 0x7fffffff);
            c.windowUpdate(1, 0x7fffffff);
            assertEquals(FLOW_CONTROL_ERROR, nextRst(c));
        }
    }

    @Test
    void contentLengthMismatchAfterTheResponse() throws Exception {
        try (FrameClient c = answered(":method", "POST", ":scheme", "http", ":path", "/", "content-length", "1")) {
            c.data(1, new byte[4], true);
            assertEquals(PROTOCOL_ERROR, nextRst(c));
        }
    }

    @Test
    void dataAfterTheClientsResetIsStreamClosed() throws Exception {
        try (FrameClient c = answered(POST)) {
            c.rst(1, 8);
            c.data(1, new byte[4], true);
            assertEquals(STREAM_CLOSED, nextRst(c));
        }
    }

    @Test
    void headersAfterTheClientsResetIsStreamClosed() throws Exception {
        try (FrameClient c = answered(POST)) {
            c.rst(1, 8);
            c.headers(1, true, "x-trailer", "1");
            assertEquals(STREAM_CLOSED, c.expectGoAway());
        }
    }

    @Test
    void anUnreadBodyIsStoppedWithNoErrorWhenItFillsTheWindow() throws Exception {
        try (FrameClient c = answered(POST)) {
            // Dropped while it fits the stream's window; the frame that uses the window up is answered.
            c.data(1, new byte[16_384], false);
            c.data(1, new byte[16_384], false);
            c.data(1, new byte[16_384], false);
            c.data(1, new byte[16_383], false);
            assertEquals(NO_ERROR, nextRst(c));
        }
    }

    @Test
    void anUnreadBodyThatFitsTheWindowEndsTheStreamNormally() throws Exception {
        try (FrameClient c = answered(POST)) {
            c.data(1, new byte[100], false);
            c.data(1, new byte[100], true);
            c.headers(3, true, FrameClient.get("/"));
            FrameClient.Frame f = c.expect(DATA);
            assertEquals(3, f.stream());
        }
    }

    @Test
    void theRestOfTheRequestEndsTheStreamNormally() throws Exception {
        try (FrameClient c = answered(POST)) {
            c.data(1, new byte[100], true);
            c.headers(3, true, FrameClient.get("/"));
            // No reset for stream 1: the next frames are stream 3's answer.
            FrameClient.Frame f = c.expect(DATA);
            assertEquals(3, f.stream());
        }
    }

    @Test
    void aRequestLeftOpenIsStoppedAfterTheStallTimeout() throws Exception {
        try (FrameClient c = answered(POST)) {
            long start = System.nanoTime();
            assertEquals(NO_ERROR, nextRst(c));
            long took = (System.nanoTime() - start) / 1_000_000;
            org.junit.jupiter.api.Assertions.assertTrue(took >= 800, "after " + took + " ms");
        }
    }
}
