package org.loommpm.http2.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.loommpm.api.Handler;
import org.loommpm.config.RequestReadTimeout;
import org.loommpm.engine.ChildStats;

/**
 * Worker slots only for running code (issue #50, 2) over HTTP/2: a stream whose handler waits for
 * the client's DATA lends its slot. Four slots against two connections of four streams uploading a
 * byte every 100 ms each: a new connection is answered while every upload is still arriving, and
 * each upload is answered with its body as sent. Assertions on order and content, not speed.
 */
class SlowUploadTest {
    private static final int SLOTS = 4;
    private static final int BODY = 50;
    private static final int REFUSED_STREAM = 7;

    private final Handler app = (req, res) -> {
        if (req.method().equals("POST")) {
            byte[] body = req.bodyBytes();
            res.send("len=" + body.length + " sum=" + sum(body));
        } else {
            res.send("ok");
        }
    };

    static long sum(byte[] body) {
        long sum = 0;
        for (byte b : body) {
            sum = sum * 31 + b;
        }
        return sum;
    }

    static byte[] body(int seed) {
        return body(seed, BODY);
    }

    static byte[] body(int seed, int size) {
        byte[] data = new byte[size];
        for (int i = 0; i < size; i++) {
            data[i] = (byte) ('a' + (i * 7 + seed) % 26);
        }
        return data;
    }

    static String[] post(String path) {
        return new String[] {":method", "POST", ":scheme", "http", ":path", path, ":authority", "localhost"};
    }

    private static ChildStats child(H2Server server) {
        return server.supervisor().children().get(0);
    }

    @Test
    void slowUploadsHoldNoSlotAndANewConnectionIsServed() throws Exception {
        try (H2Server server = H2Server.start(app, s -> s, b -> b.threadsPerChild(SLOTS))) {
            List<FrameClient> uploaders = new ArrayList<>();
            List<Thread> dribblers = new ArrayList<>();
            AtomicInteger stepsLeft = new AtomicInteger(2 * BODY);
            try {
                for (int c = 0; c < 2; c++) {
                    FrameClient client = FrameClient.open(server.port());
                    uploaders.add(client);
                    for (int i = 0; i < 4; i++) {
                        client.headers(1 + 2 * i, false, post("/up"));
                    }
                    int seed = c;
                    dribblers.add(Thread.ofVirtual().start(() -> dribble(client, seed, BODY, 100, 0, stepsLeft)));
                }
                TestWait.until("every upload waiting without a slot", 10, () -> child(server).slotlessWaits() == 8);
                assertEquals(0, child(server).activeWorkers(), "no slot held by an upload");
                try (FrameClient normal = FrameClient.open(server.port())) {
                    normal.headers(1, true, FrameClient.get("/"));
                    assertEquals("ok", normal.response(1).text());
                }
                assertTrue(stepsLeft.get() > 0, "answered before the uploads finished");
                for (Thread t : dribblers) {
                    t.join(20_000);
                }
                for (int c = 0; c < 2; c++) {
                    for (int i = 0; i < 4; i++) {
                        int id = 1 + 2 * i;
                        assertEquals("len=" + BODY + " sum=" + sum(body(c * 8 + id)), uploaders.get(c).response(id).text());
                    }
                }
                assertEquals(0, child(server).slotlessWaits());
            } finally {
                for (FrameClient c : uploaders) {
                    c.close();
                }
            }
        }
    }

    /**
     * After {@code pauseMs}, sends each of the four streams' bodies ({@code size} bytes) a byte
     * per stream every {@code stepMs}, the last with END_STREAM.
     */
    private static void dribble(FrameClient client, int seed, int size, long stepMs, long pauseMs,
                                AtomicInteger stepsLeft) {
        try {
            Thread.sleep(pauseMs);
            for (int at = 0; at < size; at++) {
                for (int i = 0; i < 4; i++) {
                    int id = 1 + 2 * i;
                    client.data(id, new byte[] {body(seed * 8 + id, size)[at]}, at == size - 1);
                }
                stepsLeft.decrementAndGet();
                Thread.sleep(stepMs);
            }
        } catch (IOException | InterruptedException e) {
            // the test ends the connection
        }
    }

    /**
     * Once a stream's body has been slow (a read lent the slot), its later reads lend the slot at
     * once: uploads that then send a byte every 10 ms, inside the 20 ms grace, do not keep their
     * slots between bytes, and a new connection is answered before any of them has finished.
     */
    @Test
    void aBodyThatWasSlowLendsItsSlotAtEveryWait() throws Exception {
        int size = 300;
        try (H2Server server = H2Server.start(app, s -> s, b -> b.threadsPerChild(SLOTS))) {
            List<FrameClient> uploaders = new ArrayList<>();
            List<Thread> dribblers = new ArrayList<>();
            AtomicInteger stepsLeft = new AtomicInteger(2 * size);
            try {
                for (int c = 0; c < 2; c++) {
                    FrameClient client = FrameClient.open(server.port());
                    uploaders.add(client);
                    for (int i = 0; i < 4; i++) {
                        client.headers(1 + 2 * i, false, post("/up"));
                    }
                    int seed = c;
                    dribblers.add(Thread.ofVirtual().start(() -> dribble(client, seed, size, 10, 200, stepsLeft)));
                }
                Thread.sleep(500);
                try (FrameClient normal = FrameClient.open(server.port())) {
                    normal.headers(1, true, FrameClient.get("/"));
                    assertEquals("ok", normal.response(1).text());
                }
                assertTrue(stepsLeft.get() > 0, "answered before the uploads finished");
                for (Thread t : dribblers) {
                    t.join(20_000);
                }
                for (int c = 0; c < 2; c++) {
                    for (int i = 0; i < 4; i++) {
                        int id = 1 + 2 * i;
                        assertEquals("len=" + size + " sum=" + sum(body(c * 8 + id, size)),
                                uploaders.get(c).response(id).text());
                    }
                }
            } finally {
                for (FrameClient c : uploaders) {
                    c.close();
                }
            }
        }
    }

    /** The body stage still ends a read whose slot is lent: 408 (the handler read nothing yet). */
    @Test
    void bodyTimeoutEndsAWaitWithoutSlot() throws Exception {
        RequestReadTimeout rrt = RequestReadTimeout.DEFAULT.withBody(
                new RequestReadTimeout.Stage(Duration.ofSeconds(1), Duration.ZERO, 0));
        try (H2Server server = H2Server.start(app, s -> s, b -> b.threadsPerChild(SLOTS).requestReadTimeout(rrt));
             FrameClient c = FrameClient.open(server.port())) {
            c.headers(1, false, post("/up"));
            c.data(1, new byte[] {'a', 'b'}, false);
            TestWait.until("the read waiting without a slot", 5, () -> child(server).slotlessWaits() == 1);
            assertEquals(408, c.response(1).status());
            assertEquals(0, child(server).slotlessWaits());
        }
    }

    /**
     * Issue #50, "also seen": a client that keeps within SETTINGS_MAX_CONCURRENT_STREAMS opens a
     * stream as soon as it has an answer's END_STREAM, while that answer's handler may still be
     * finishing (its place in the limit is held until then). Refusing it then is the server's
     * doing: it must not count as a rapid reset (which ended such a client with
     * ENHANCE_YOUR_CALM). The client retries refused streams, as REFUSED_STREAM allows; every
     * request is answered and the connection stays. (The answers are not decoded: a response
     * ends with END_STREAM, the handler's text is not what is tested.)
     */
    @Test
    void aClientWithinTheStreamLimitIsNeverCutForHandlersStillFinishing() throws Exception {
        Handler lingering = (req, res) -> {
            res.send("done");
            try {
                Thread.sleep(300); // after the answer: logging, metrics, a slow carrier
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        };
        try (H2Server server = H2Server.start(lingering, s -> s.withMaxConcurrentStreams(2).withMaxResetsPerSecond(1));
             FrameClient c = FrameClient.open(server.port())) {
            int next = 1;
            int answered = 0;
            while (answered < 12) {
                int a = next;
                int b = next + 2;
                next += 4;
                c.headers(a, true, FrameClient.get("/"));
                c.headers(b, true, FrameClient.get("/"));
                // Both end, either answered (END_STREAM) or refused (RST_STREAM REFUSED_STREAM);
                // read frame by frame, as a reset of one may come while the other is answered.
                int ended = 0;
                boolean refused = false;
                while (ended < 2) {
                    FrameClient.Frame f = c.read();
                    if (f.type() == FrameClient.GOAWAY) {
                        throw new AssertionError("GOAWAY with code " + f.errorCode());
                    }
                    if (f.stream() != a && f.stream() != b) {
                        continue;
                    }
                    if (f.type() == FrameClient.RST_STREAM) {
                        assertEquals(REFUSED_STREAM, f.errorCode());
                        refused = true;
                        ended++;
                    } else if ((f.type() == FrameClient.DATA || f.type() == FrameClient.HEADERS)
                            && f.has(FrameClient.END_STREAM)) {
                        answered++;
                        ended++;
                    }
                }
                if (refused) {
                    Thread.sleep(50);
                }
            }
            assertEquals(12, answered);
        }
    }
}
