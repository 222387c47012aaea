package org.loommpm.http2.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.loommpm.http2.it.FrameClient.HEADERS;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.loommpm.config.RequestReadTimeout;

/**
 * {@code RequestReadTimeout} on HTTP/2: the rest of a connection preface and a header block left
 * waiting for its CONTINUATION frames are bounded by the header stage's first timeout (1 s here),
 * not by {@code Timeout} (60 s): the server closes the connection. A stream's body read by its
 * handler is bounded by the body stage (1 s, MinRate=20 here): too slow gets 408 on the stream, a
 * trickle above the rate is extended and served.
 */
class HeadTimeoutTest {
    static H2Server server;

    @BeforeAll
    static void start() throws Exception {
        server = H2Server.start((req, res) -> {
            if (req.method().equals("POST")) {
                res.send("len=" + req.bodyBytes().length);
            } else {
                res.send("ok");
            }
        }, s -> s, b -> b.requestReadTimeout(RequestReadTimeout.DEFAULT
                .withHeader(new RequestReadTimeout.Stage(Duration.ofSeconds(1), Duration.ofSeconds(2), 500))
                .withBody(new RequestReadTimeout.Stage(Duration.ofSeconds(1), Duration.ZERO, 20))));
    }

    @AfterAll
    static void stop() {
        server.close();
    }

    @Test
    void headerBlockWithoutItsContinuationIsClosed() throws Exception {
        try (FrameClient c = FrameClient.open(server.port())) {
            c.frame(HEADERS, 0, 1, c.block(FrameClient.get("/")));
            assertTrue(c.closedByServer(), "closed at the header stage, long before Timeout");
        }
    }

    @Test
    void bodyBelowMinRateGets408OnItsStream() throws Exception {
        try (FrameClient c = FrameClient.open(server.port())) {
            c.autoWindow(false);
            c.headers(1, false, POST);
            Thread trickle = trickle(c, 60, 400); // 2.5 bytes/s: below MinRate=20
            try {
                assertEquals("408", c.response(1).headers().get(":status"));
            } finally {
                trickle.interrupt();
                trickle.join(5_000);
            }
        }
    }

    @Test
    void bodyTrickleAboveMinRateIsServed() throws Exception {
        try (FrameClient c = FrameClient.open(server.port())) {
            c.autoWindow(false);
            c.headers(1, false, POST);
            Thread trickle = trickle(c, 100, 25); // 40 bytes/s for 2.5 s: twice MinRate=20
            FrameClient.Response r = c.response(1);
            trickle.join(5_000);
            assertEquals("200", r.headers().get(":status"));
            assertEquals("len=100", new String(r.body(), StandardCharsets.UTF_8));
        }
    }

    private static final String[] POST = {":method", "POST", ":scheme", "http", ":path", "/up", ":authority", "localhost"};

    /** Sends {@code n} one-byte DATA frames on stream 1, {@code stepMs} apart, the last with END_STREAM. */
    private static Thread trickle(FrameClient c, int n, long stepMs) {
        return Thread.ofVirtual().start(() -> {
            try {
                for (int i = 1; i <= n; i++) {
                    c.data(1, new byte[] {'b'}, i == n);
                    Thread.sleep(stepMs);
                }
            } catch (IOException | InterruptedException e) {
                // the stream was answered (or the test ended): stop
            }
        });
    }

    @Test
    void unfinishedPrefaceIsClosed() throws Exception {
        try (FrameClient c = new FrameClient(server.port())) {
            c.raw("PRI * HTTP/2.0\r\n\r\nS".getBytes(StandardCharsets.US_ASCII));
            assertTrue(c.closedByServer(), "closed at the header stage, long before Timeout");
        }
    }
}
