package org.loommpm.http2.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.loommpm.http2.it.FrameClient.END_HEADERS;
import static org.loommpm.http2.it.FrameClient.END_STREAM;
import static org.loommpm.http2.it.FrameClient.HEADERS;
import static org.loommpm.http2.it.FrameClient.PRIORITY;

import java.io.IOException;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Stream errors (RFC 9113 §5.4.2) and malformed requests (§8.1.1, §8.2, §8.3): the stream is
 * reset with the right code and the connection goes on serving (checked with a GET afterwards).
 */
class StreamErrorTest {
    static final int PROTOCOL_ERROR = 1, FLOW_CONTROL_ERROR = 3, STREAM_CLOSED = 5, FRAME_SIZE_ERROR = 6;
    static H2Server server;

    @BeforeAll
    static void start() throws Exception {
        server = H2Server.start((req, res) -> {
            if (req.path().equals("/read")) {
                res.send(req.bodyBytes().length + " bytes");
            } else if (req.path().equals("/hold")) {
                Thread.sleep(1000); // answers late and never reads the body
                res.send("held");
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
    interface ClientAction {
        void run(FrameClient c) throws IOException;
    }

    /** Runs {@code action} (which provokes an error on stream 1), checks the RST code, then that stream 101 is served. */
    private static void expectRst(int code, ClientAction action) throws Exception {
        try (FrameClient c = FrameClient.open(server.port())) {
            action.run(c);
            assertEquals(code, c.expectRst(1));
            c.headers(101, true, FrameClient.get("/"));
            assertEquals("ok", c.response(101).text());
        }
    }

    private static void malformed(String... fields) throws Exception {
        expectRst(PROTOCOL_ERROR, c -> c.headers(1, true, fields));
    }

    @Test
    void upperCaseFieldName() throws Exception {
        malformed(":method", "GET", ":scheme", "http", ":path", "/", "X-Upper", "1");
    }

    @Test
    void connectionSpecificFields() throws Exception {
        malformed(":method", "GET", ":scheme", "http", ":path", "/", "connection", "keep-alive");
        malformed(":method", "GET", ":scheme", "http", ":path", "/", "transfer-encoding", "chunked");
        malformed(":method", "GET", ":scheme", "http", ":path", "/", "upgrade", "h2c");
        malformed(":method", "GET", ":scheme", "http", ":path", "/", "keep-alive", "5");
    }

    @Test
    void teOtherThanTrailers() throws Exception {
        malformed(":method", "GET", ":scheme", "http", ":path", "/", "te", "gzip");
        try (FrameClient c = FrameClient.open(server.port())) {
            c.headers(1, true, ":method", "GET", ":scheme", "http", ":path", "/", "te", "trailers");
            assertEquals("ok", c.response(1).text());
        }
    }

    @Test
    void pseudoHeaderRules() throws Exception {
        malformed(":scheme", "http", ":path", "/");
        malformed(":method", "GET", ":path", "/");
        malformed(":method", "GET", ":scheme", "http");
        malformed(":method", "GET", ":scheme", "http", ":path", "");
        malformed(":method", "GET", ":scheme", "http", ":path", "/", ":path", "/");
        malformed(":method", "GET", ":method", "GET", ":scheme", "http", ":path", "/");
        malformed(":method", "GET", ":scheme", "http", "accept", "*/*", ":path", "/");
        malformed(":method", "GET", ":scheme", "http", ":path", "/", ":status", "200");
        malformed(":method", "GET", ":scheme", "http", ":path", "/", ":foo", "bar");
    }

    @Test
    void invalidFieldValues() throws Exception {
        malformed(":method", "GET", ":scheme", "http", ":path", "/", "x", "a\nb");
        malformed(":method", "GET", ":scheme", "http", ":path", "/", "x", " padded");
        malformed(":method", "GET", ":scheme", "http", ":path", "/", "bad name", "1");
    }

    @Test
    void contentLengthMismatch() throws Exception {
        expectRst(PROTOCOL_ERROR, c -> {
            c.headers(1, false, ":method", "POST", ":scheme", "http", ":path", "/read", "content-length", "4");
            c.data(1, new byte[3], true);
        });
        expectRst(PROTOCOL_ERROR, c -> {
            c.headers(1, false, ":method", "POST", ":scheme", "http", ":path", "/read", "content-length", "4");
            c.data(1, new byte[5], true);
        });
        expectRst(PROTOCOL_ERROR, c -> c.headers(1, true, ":method", "POST", ":scheme", "http", ":path", "/read",
                "content-length", "4"));
    }

    @Test
    void trailersMustEndTheStreamAndHaveNoPseudoFields() throws Exception {
        expectRst(PROTOCOL_ERROR, c -> {
            c.headers(1, false, ":method", "POST", ":scheme", "http", ":path", "/read");
            c.data(1, new byte[3], false);
            c.headers(1, false, "x-trailer", "1");
        });
        expectRst(PROTOCOL_ERROR, c -> {
            c.headers(1, false, ":method", "POST", ":scheme", "http", ":path", "/read");
            c.data(1, new byte[3], false);
            c.headers(1, true, ":method", "POST");
        });
        try (FrameClient c = FrameClient.open(server.port())) {
            c.headers(1, false, ":method", "POST", ":scheme", "http", ":path", "/read");
            c.data(1, new byte[3], false);
            c.headers(1, true, "x-trailer", "1");
            assertEquals("3 bytes", c.response(1).text());
        }
    }

    @Test
    void framesAfterEndStreamAreStreamClosed() throws Exception {
        try (FrameClient c = FrameClient.open(server.port())) {
            // /read waits for the body; the client half-closes, then sends more DATA.
            c.headers(1, false, ":method", "POST", ":scheme", "http", ":path", "/read");
            c.data(1, new byte[2], true);
            c.data(1, new byte[2], true);
            c.headers(3, true, FrameClient.get("/"));
            // Either the response or the reset comes first; the reset must come, and stream 3 is served.
            assertEquals(STREAM_CLOSED, c.expectRst(1));
            assertEquals("ok", c.response(3).text());
        }
    }

    @Test
    void dataOnAStreamTheClientResetIsStreamClosed() throws Exception {
        try (FrameClient c = FrameClient.open(server.port())) {
            c.headers(1, false, ":method", "POST", ":scheme", "http", ":path", "/read");
            c.rst(1, 8);
            c.data(1, new byte[2], true);
            assertEquals(STREAM_CLOSED, c.expectRst(1));
        }
    }

    @Test
    void streamWindowOverrun() throws Exception {
        expectRst(FLOW_CONTROL_ERROR, c -> {
            c.headers(1, false, ":method", "POST", ":scheme", "http", ":path", "/hold");
            byte[] chunk = new byte[16_384];
            for (int i = 0; i < 4; i++) {
                c.data(1, chunk, false);
            }
        });
    }

    @Test
    void windowUpdateRules() throws Exception {
        expectRst(PROTOCOL_ERROR, c -> {
            c.headers(1, false, ":method", "POST", ":scheme", "http", ":path", "/read");
            c.windowUpdate(1, 0);
        });
        expectRst(FLOW_CONTROL_ERROR, c -> {
            c.headers(1, false, ":method", "POST", ":scheme", "http", ":path", "/read");
            c.windowUpdate(1, 0x7fffffff);
        });
    }

    @Test
    void priorityRules() throws Exception {
        expectRst(FRAME_SIZE_ERROR, c -> c.frame(PRIORITY, 0, 1, new byte[4]));
        expectRst(PROTOCOL_ERROR, c -> c.frame(PRIORITY, 0, 1, new byte[] {0, 0, 0, 1, 16}));
        expectRst(PROTOCOL_ERROR, c -> c.frame(HEADERS, END_HEADERS | END_STREAM | FrameClient.PRIORITY_FLAG, 1,
                ConnectionErrorTest.concat(new byte[] {0, 0, 0, 1, 16}, c.block(FrameClient.get("/")))));
    }
}
