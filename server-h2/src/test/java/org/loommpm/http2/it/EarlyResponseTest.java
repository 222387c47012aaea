package org.loommpm.http2.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.loommpm.http2.it.FrameClient.ACK;
import static org.loommpm.http2.it.FrameClient.PING;
import static org.loommpm.http2.it.FrameClient.RST_STREAM;
import static org.loommpm.http2.it.FrameClient.WINDOW_UPDATE;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.loommpm.api.Handler;

/**
 * A response that ends before the request body (issue #23: a 100 MB POST to a static file,
 * which answers 405 without reading, "stopped after 65,535 bytes" with curl 7.88.1, code 000).
 * The frames curl gets: its first 65,535 bytes fill the stream's initial window, which nobody
 * reading the body ever replenishes; the server sends the whole 405, then RST_STREAM NO_ERROR
 * (RFC 9113 §8.1: stop sending, the response stands). A client that keeps the response (nghttp,
 * later curl) shows the 405; curl 7.88.1 fails the upload it can no longer send and drops it.
 */
class EarlyResponseTest {
    static final int NO_ERROR = 0;
    static final int INITIAL_WINDOW = 65_535;

    /** Answers like the static-file handler does to a POST: at once, body unread. */
    final Handler app = (req, res) -> {
        if (req.method().equals("POST")) {
            res.header("Allow", "GET, HEAD, OPTIONS").send(405, "Method Not Allowed\n");
        } else {
            res.send("ok");
        }
    };

    static String[] post(long contentLength) {
        return new String[] {":method", "POST", ":scheme", "http", ":path", "/file", ":authority", "x",
                "content-length", Long.toString(contentLength)};
    }

    /** Sends {@code n} body bytes on {@code stream} in frames of at most 16 KiB (the default max). */
    static void body(FrameClient c, int stream, int n, boolean end) throws IOException {
        for (int sent = 0; sent < n; ) {
            int len = Math.min(16_384, n - sent);
            sent += len;
            c.data(stream, new byte[len], end && sent == n);
        }
    }

    /** Reads until the PING ack (the server answers it after what it queued before), keeping the rest. */
    static List<FrameClient.Frame> untilPingAck(FrameClient c) throws IOException {
        c.ping(new byte[8]);
        List<FrameClient.Frame> seen = new ArrayList<>();
        for (;;) {
            FrameClient.Frame f = c.read();
            if (f.type() == PING && f.has(ACK)) {
                return seen;
            }
            seen.add(f);
        }
    }

    @Test
    void aBodyLargerThanTheWindowGetsTheWholeResponseThenRstStreamNoError() throws Exception {
        try (H2Server server = H2Server.start(app); FrameClient c = FrameClient.open(server.port())) {
            // 100 MB declared; the client may send 65,535 bytes before the server grants more.
            c.headers(1, false, post(100_000_000L));
            body(c, 1, INITIAL_WINDOW, false);
            FrameClient.Response r = c.response(1);
            assertEquals(405, r.status());
            assertEquals("Method Not Allowed\n", r.text());
            // Right after the response's END_STREAM: the reset, and never more window on stream 1.
            List<FrameClient.Frame> after = untilPingAck(c);
            assertTrue(after.stream().anyMatch(f -> f.type() == RST_STREAM && f.stream() == 1
                    && f.errorCode() == NO_ERROR), "RST_STREAM NO_ERROR on stream 1: " + after);
            assertFalse(after.stream().anyMatch(f -> f.type() == WINDOW_UPDATE && f.stream() == 1), after.toString());
            // DATA already in flight when the reset left is ignored; the connection goes on.
            c.data(1, new byte[16_384], false);
            c.headers(3, true, FrameClient.get("/"));
            assertEquals("ok", c.response(3).text());
        }
    }

    @Test
    void aBodyThatFitsTheWindowEndsTheStreamWithoutReset() throws Exception {
        try (H2Server server = H2Server.start(app); FrameClient c = FrameClient.open(server.port())) {
            c.headers(1, false, post(60_000));
            body(c, 1, 60_000, true);
            assertEquals(405, c.response(1).status());
            List<FrameClient.Frame> after = untilPingAck(c);
            assertFalse(after.stream().anyMatch(f -> f.type() == RST_STREAM), "no reset: " + after);
        }
    }
}
