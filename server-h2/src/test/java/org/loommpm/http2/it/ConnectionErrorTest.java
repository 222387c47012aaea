package org.loommpm.http2.it;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.loommpm.http2.it.FrameClient.ACK;
import static org.loommpm.http2.it.FrameClient.CONTINUATION;
import static org.loommpm.http2.it.FrameClient.DATA;
import static org.loommpm.http2.it.FrameClient.END_HEADERS;
import static org.loommpm.http2.it.FrameClient.END_STREAM;
import static org.loommpm.http2.it.FrameClient.GOAWAY;
import static org.loommpm.http2.it.FrameClient.HEADERS;
import static org.loommpm.http2.it.FrameClient.PING;
import static org.loommpm.http2.it.FrameClient.PRIORITY;
import static org.loommpm.http2.it.FrameClient.PUSH_PROMISE;
import static org.loommpm.http2.it.FrameClient.RST_STREAM;
import static org.loommpm.http2.it.FrameClient.SETTINGS;
import static org.loommpm.http2.it.FrameClient.WINDOW_UPDATE;
import static org.loommpm.http2.it.FrameClient.int32;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Connection errors (RFC 9113 §5.4.1): each violation is answered with GOAWAY carrying the code
 * RFC 9113 assigns, then the connection closes. Raw frames, one fresh connection per case.
 */
class ConnectionErrorTest {
    static final int PROTOCOL_ERROR = 1, FLOW_CONTROL_ERROR = 3, STREAM_CLOSED = 5, FRAME_SIZE_ERROR = 6,
            COMPRESSION_ERROR = 9;
    static H2Server server;

    @BeforeAll
    static void start() throws Exception {
        // The body is read before answering: a handler that answered at once would have the server
        // reset the unread upload itself, and the client's frames on that stream are then ignored
        // (RFC 9113 §5.1), which would make the cases on client-reset streams depend on timing.
        server = H2Server.start((req, res) -> {
            req.body().transferTo(java.io.OutputStream.nullOutputStream());
            res.send("ok");
        });
    }

    @AfterAll
    static void stop() {
        server.close();
    }

    /** Opens a connection, runs {@code action}, and checks GOAWAY {@code code} and the close. */
    private static void expectGoAway(int code, ClientAction action) throws Exception {
        try (FrameClient c = FrameClient.open(server.port())) {
            action.run(c);
            assertEquals(code, c.expectGoAway());
            assertTrue(c.closedByServer(), "connection closed after GOAWAY");
        }
    }

    @FunctionalInterface
    interface ClientAction {
        void run(FrameClient c) throws IOException;
    }

    @Test
    void invalidPreface() throws Exception {
        try (FrameClient c = new FrameClient(server.port())) {
            c.raw("PRI * HTTP/2.0\r\n\r\nXX\r\n\r\n".getBytes(StandardCharsets.US_ASCII));
            assertEquals(PROTOCOL_ERROR, c.expectGoAway());
            assertTrue(c.closedByServer(), "closed after GOAWAY (RFC 9113 §3.4)");
        }
    }

    @Test
    void prefaceNotFollowedBySettings() throws Exception {
        try (FrameClient c = new FrameClient(server.port())) {
            c.raw(FrameClient.PREFACE);
            c.ping(new byte[8]);
            assertEquals(PROTOCOL_ERROR, c.expectGoAway());
            assertTrue(c.closedByServer(), "closed after GOAWAY (RFC 9113 §3.4)");
        }
    }

    @Test
    void dataOnStreamZero() throws Exception {
        expectGoAway(PROTOCOL_ERROR, c -> c.frame(DATA, 0, 0, new byte[4]));
    }

    @Test
    void headersOnStreamZeroOrEven() throws Exception {
        expectGoAway(PROTOCOL_ERROR, c -> c.frame(HEADERS, END_HEADERS | END_STREAM, 0, c.block(FrameClient.get("/"))));
        expectGoAway(PROTOCOL_ERROR, c -> c.frame(HEADERS, END_HEADERS | END_STREAM, 2, c.block(FrameClient.get("/"))));
    }

    @Test
    void frameLargerThanMaxFrameSize() throws Exception {
        expectGoAway(FRAME_SIZE_ERROR, c -> c.frame(HEADERS, END_HEADERS, 1, new byte[16_385]));
    }

    @Test
    void settingsViolations() throws Exception {
        expectGoAway(PROTOCOL_ERROR, c -> c.frame(SETTINGS, 0, 1, new byte[0]));
        expectGoAway(FRAME_SIZE_ERROR, c -> c.frame(SETTINGS, 0, 0, new byte[5]));
        expectGoAway(FRAME_SIZE_ERROR, c -> c.frame(SETTINGS, ACK, 0, new byte[6]));
        expectGoAway(PROTOCOL_ERROR, c -> c.settings(0x2, 2));
        expectGoAway(FLOW_CONTROL_ERROR, c -> c.settings(0x4, 0x80000000));
        expectGoAway(PROTOCOL_ERROR, c -> c.settings(0x5, 16_383));
        expectGoAway(PROTOCOL_ERROR, c -> c.settings(0x5, 16_777_216));
    }

    @Test
    void pingIsAnsweredAndViolationsAreErrors() throws Exception {
        try (FrameClient c = FrameClient.open(server.port())) {
            byte[] payload = "12345678".getBytes(StandardCharsets.US_ASCII);
            c.ping(payload);
            FrameClient.Frame ack = c.expect(PING);
            assertTrue(ack.has(ACK));
            assertArrayEquals(payload, ack.payload());
        }
        expectGoAway(FRAME_SIZE_ERROR, c -> c.frame(PING, 0, 0, new byte[7]));
        expectGoAway(PROTOCOL_ERROR, c -> c.frame(PING, 0, 1, new byte[8]));
    }

    @Test
    void goAwayOnAStream() throws Exception {
        expectGoAway(PROTOCOL_ERROR, c -> c.frame(GOAWAY, 0, 1, new byte[8]));
    }

    @Test
    void windowUpdateViolations() throws Exception {
        expectGoAway(PROTOCOL_ERROR, c -> c.windowUpdate(0, 0));
        expectGoAway(FRAME_SIZE_ERROR, c -> c.frame(WINDOW_UPDATE, 0, 0, new byte[3]));
        expectGoAway(FLOW_CONTROL_ERROR, c -> {
            c.windowUpdate(0, 0x7fffffff);
            c.windowUpdate(0, 0x7fffffff);
        });
        expectGoAway(PROTOCOL_ERROR, c -> c.windowUpdate(7, 100)); // idle stream
    }

    @Test
    void continuationViolations() throws Exception {
        expectGoAway(PROTOCOL_ERROR, c -> c.frame(CONTINUATION, END_HEADERS, 1, c.block(FrameClient.get("/"))));
        expectGoAway(PROTOCOL_ERROR, c -> {
            byte[] block = c.block(FrameClient.get("/"));
            c.frame(HEADERS, END_STREAM, 1, java.util.Arrays.copyOf(block, 3));
            c.ping(new byte[8]);
        });
        expectGoAway(PROTOCOL_ERROR, c -> {
            byte[] block = c.block(FrameClient.get("/"));
            c.frame(HEADERS, END_STREAM, 1, java.util.Arrays.copyOf(block, 3));
            c.frame(CONTINUATION, END_HEADERS, 3, java.util.Arrays.copyOfRange(block, 3, block.length));
        });
    }

    @Test
    void pushPromiseFromAClient() throws Exception {
        expectGoAway(PROTOCOL_ERROR, c -> c.frame(PUSH_PROMISE, END_HEADERS, 1, new byte[4]));
    }

    @Test
    void framesOnIdleStreams() throws Exception {
        expectGoAway(PROTOCOL_ERROR, c -> c.rst(5, 8));
        expectGoAway(FRAME_SIZE_ERROR, c -> {
            c.headers(1, true, FrameClient.get("/"));
            c.frame(RST_STREAM, 0, 1, new byte[3]);
        });
        expectGoAway(PROTOCOL_ERROR, c -> c.data(3, new byte[1], true));
    }

    @Test
    void streamIdsMustIncrease() throws Exception {
        expectGoAway(PROTOCOL_ERROR, c -> {
            c.headers(5, true, FrameClient.get("/"));
            c.response(5);
            c.headers(3, true, FrameClient.get("/"));
        });
    }

    @Test
    void headersOnAStreamTheClientReset() throws Exception {
        expectGoAway(STREAM_CLOSED, c -> {
            c.headers(1, false, ":method", "POST", ":scheme", "http", ":path", "/", ":authority", "x");
            c.rst(1, 8);
            c.headers(1, true, FrameClient.get("/"));
        });
    }

    @Test
    void invalidHpack() throws Exception {
        // Index 70 is beyond the static table and the (empty) dynamic table.
        expectGoAway(COMPRESSION_ERROR, c -> c.frame(HEADERS, END_HEADERS | END_STREAM, 1,
                new byte[] {(byte) 0xff, 0x07}));
    }

    @Test
    void unknownFramesAndPriorityAreIgnored() throws Exception {
        try (FrameClient c = FrameClient.open(server.port())) {
            c.frame(0x42, 0xff, 0, new byte[5]);
            c.frame(PRIORITY, 0, 9, new byte[] {0, 0, 0, 3, 16}); // on an idle stream: allowed
            c.frame(HEADERS, END_HEADERS | END_STREAM | FrameClient.PRIORITY_FLAG, 1,
                    concat(new byte[] {0, 0, 0, 0, 16}, c.block(FrameClient.get("/"))));
            assertEquals("ok", c.response(1).text());
            c.headers(3, true, FrameClient.get("/"));
            assertEquals("ok", c.response(3).text());
            c.headers(9, true, FrameClient.get("/"));
            assertEquals("ok", c.response(9).text());
        }
    }

    @Test
    void paddedFramesAreUnderstood() throws Exception {
        try (FrameClient c = FrameClient.open(server.port())) {
            byte[] block = c.block(FrameClient.get("/"));
            c.frame(HEADERS, END_HEADERS | END_STREAM | FrameClient.PADDED, 1, concat(new byte[] {3}, block, new byte[3]));
            assertEquals("ok", c.response(1).text());
        }
        expectGoAway(PROTOCOL_ERROR, c -> {
            c.headers(1, false, ":method", "POST", ":scheme", "http", ":path", "/", ":authority", "x");
            c.frame(DATA, FrameClient.PADDED | END_STREAM, 1, new byte[] {5, 0, 0});
        });
    }

    static byte[] concat(byte[]... parts) {
        int n = 0;
        for (byte[] p : parts) {
            n += p.length;
        }
        byte[] out = new byte[n];
        int o = 0;
        for (byte[] p : parts) {
            System.arraycopy(p, 0, out, o, p.length);
            o += p.length;
        }
        return out;
    }

    @Test
    void acceptedEdgesOfTheProtocol() throws Exception {
        try (FrameClient c = FrameClient.open(server.port())) {
            c.settings(0x99, 7); // unknown setting: ignored
            FrameClient.Frame ack = c.expect(SETTINGS);
            assertTrue(ack.has(ACK));
            // A header block split over several CONTINUATION frames.
            byte[] block = c.block(FrameClient.get("/"));
            c.frame(HEADERS, END_STREAM, 1, java.util.Arrays.copyOfRange(block, 0, 2));
            c.frame(CONTINUATION, 0, 1, java.util.Arrays.copyOfRange(block, 2, 4));
            c.frame(CONTINUATION, END_HEADERS, 1, java.util.Arrays.copyOfRange(block, 4, block.length));
            assertEquals("ok", c.response(1).text());
            // DATA of exactly 2^14 octets, RST_STREAM with an unknown code, GOAWAY's code unknown too.
            c.headers(3, false, ":method", "POST", ":scheme", "http", ":path", "/", ":authority", "x");
            c.data(3, new byte[16_384], true);
            assertEquals("ok", c.response(3).text());
            c.headers(5, false, ":method", "POST", ":scheme", "http", ":path", "/", ":authority", "x");
            c.rst(5, 0xff);
            c.ping(new byte[8]);
            assertTrue(c.expect(PING).has(ACK), "the connection goes on");
        }
    }
}
