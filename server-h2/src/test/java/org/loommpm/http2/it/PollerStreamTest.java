package org.loommpm.http2.it;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.Random;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;
import org.loommpm.api.Filter;
import org.loommpm.api.Handler;
import org.loommpm.api.InvocationType;
import org.loommpm.api.Request;
import org.loommpm.api.Response;
import org.loommpm.api.Router;
import org.loommpm.api.SuspendedResponse;
import org.loommpm.engine.ChildStats;
import org.loommpm.engine.PollerStats;
import org.loommpm.http2.frame.TestFrames;

/**
 * The frame loop's turn on the poller (Session.serveOnPoller): a lone complete request to a
 * non-blocking route on an idle cleartext connection is read, run and answered by the poller
 * that claimed the connection, counted on the poller's board. Everything else (a blocking
 * route, a second request in the same read, a header block in CONTINUATION frames, a body
 * still arriving) goes on on a worker from where the poller stopped; a response the client's
 * window or socket does not take whole is finished by the frame loop later.
 */
class PollerStreamTest {
    private static final Handler ECHO_PATH = Handler.nonBlocking(
            (req, res) -> res.send(req.path().getBytes(StandardCharsets.UTF_8)));

    /** Requests the server's pollers served themselves. */
    private static long onPollers(H2Server server) {
        long n = 0;
        for (ChildStats ch : server.supervisor().children()) {
            for (PollerStats p : ch.pollerStats()) {
                n += p.inlineRequests();
            }
        }
        return n;
    }

    private static String text(FrameClient.Response r) {
        return new String(r.body(), StandardCharsets.UTF_8);
    }

    @Test
    void loneRequestsToANonBlockingRouteAreServedByThePoller() throws Exception {
        try (H2Server server = H2Server.start(ECHO_PATH); FrameClient c = FrameClient.open(server.port())) {
            for (int i = 0; i < 6; i++) {
                int id = 1 + 2 * i;
                c.headers(id, true, FrameClient.get("/p" + i));
                assertEquals("/p" + i, text(c.response(id)));
                awaitBackWithItsPoller(server);
            }
            // The first may come with the preface's frames, which a worker reads.
            TestWait.until("requests counted", 10, () -> onPollers(server) >= 5);
            assertEquals(6, server.stats().responsesCompleted());
        }
    }

    @Test
    void aBlockingRouteGoesOnOnAWorkerFromWhereThePollerStopped() throws Exception {
        Router app = new Router()
                .get("/nb", ECHO_PATH)
                .get("/blocking", (req, res) -> res.send(Thread.currentThread().isVirtual() ? "virtual" : "platform"));
        try (H2Server server = H2Server.start(app); FrameClient c = FrameClient.open(server.port())) {
            c.headers(1, true, FrameClient.get("/nb"));
            assertEquals("/nb", text(c.response(1)));
            long before = onPollers(server);
            for (int i = 0; i < 3; i++) {
                int id = 3 + 4 * i;
                c.headers(id, true, FrameClient.get("/blocking"));
                assertEquals("virtual", text(c.response(id)), "a blocking route runs on a virtual thread");
                awaitBackWithItsPoller(server);
                c.headers(id + 2, true, FrameClient.get("/nb"));
                assertEquals("/nb", text(c.response(id + 2)));
            }
            TestWait.until("requests counted", 10, () -> server.stats().responsesCompleted() >= 7);
            assertEquals(before + 3, onPollers(server), "the three /nb ran on the poller, no /blocking did");
        }
    }

    @Test
    void aRoutersNonBlockingRouteOnThePollerSeesItsPathParametersAndFilters() throws Exception {
        Router app = new Router()
                .filter(new Filter() {
                    @Override
                    public void filter(Request req, Response res, Handler next) throws Exception {
                        res.header("x-filtered", "yes");
                        next.handle(req, res);
                    }

                    @Override
                    public InvocationType invocationType() {
                        return InvocationType.NON_BLOCKING;
                    }
                })
                .get("/users/{id}", Handler.nonBlocking((req, res) -> res.send(req.pathParam("id")
                        + " on " + (Thread.currentThread().getName().contains("poller") ? "poller" : "worker"))));
        try (H2Server server = H2Server.start(app); FrameClient c = FrameClient.open(server.port())) {
            c.headers(1, true, FrameClient.get("/users/first"));
            c.response(1);
            long before = onPollers(server);
            for (int id = 3; id <= 7; id += 2) {
                awaitBackWithItsPoller(server);
                c.headers(id, true, FrameClient.get("/users/u" + id));
                FrameClient.Response r = c.response(id);
                assertEquals("u" + id + " on poller", text(r));
                assertEquals("yes", r.headers().get("x-filtered"));
            }
            assertEquals(before + 3, onPollers(server));
        }
    }

    @Test
    void aNonBlockingHandlerRunsOnThePollerThread() throws Exception {
        Handler where = Handler.nonBlocking((req, res) -> res.send(Thread.currentThread().getName()));
        try (H2Server server = H2Server.start(where); FrameClient c = FrameClient.open(server.port())) {
            c.headers(1, true, FrameClient.get("/"));
            c.response(1);
            awaitBackWithItsPoller(server);
            c.headers(3, true, FrameClient.get("/"));
            assertTrue(text(c.response(3)).contains("poller"), "served by the poller thread");
        }
    }

    @Test
    void twoRequestsInOneReadRunConcurrentlyOnWorkers() throws Exception {
        CountDownLatch release = new CountDownLatch(1);
        Router app = new Router()
                .get("/fast", ECHO_PATH)
                .get("/slow", (req, res) -> {
                    assertTrue(release.await(20, TimeUnit.SECONDS));
                    res.send("/slow".getBytes(StandardCharsets.UTF_8));
                });
        try (H2Server server = H2Server.start(app); FrameClient c = FrameClient.open(server.port())) {
            c.headers(1, true, FrameClient.get("/fast"));
            c.response(1);
            long before = onPollers(server);
            c.getsInOneWrite(3, "/slow", "/fast");
            assertEquals("/fast", text(c.response(5)));
            assertEquals(1, release.getCount(), "/fast was answered while /slow still blocked");
            release.countDown();
            assertEquals("/slow", text(c.response(3)));
            assertEquals(before, onPollers(server), "a read with two requests is a worker's");
        }
    }

    @Test
    void aHeaderBlockInContinuationFramesIsAWorkersAndHpackStaysInStep() throws Exception {
        try (H2Server server = H2Server.start(ECHO_PATH); FrameClient c = FrameClient.open(server.port())) {
            c.headers(1, true, FrameClient.get("/first"));
            c.response(1);
            byte[] block = c.block(":method", "GET", ":scheme", "http", ":path", "/split", ":authority", "localhost",
                    "x-padding", "p".repeat(200));
            int half = block.length / 2;
            c.frame(FrameClient.HEADERS, FrameClient.END_STREAM, 3, Arrays.copyOfRange(block, 0, half));
            c.frame(FrameClient.CONTINUATION, FrameClient.END_HEADERS, 3, Arrays.copyOfRange(block, half, block.length));
            assertEquals("/split", text(c.response(3)));
            // The poller's next turn decodes with the table the worker left.
            for (int id = 5; id <= 9; id += 2) {
                c.headers(id, true, FrameClient.get("/after" + id));
                assertEquals("/after" + id, text(c.response(id)));
            }
        }
    }

    @Test
    void aRequestWithItsWholeBodyInOneReadIsServedByThePoller() throws Exception {
        Handler echo = Handler.nonBlocking((req, res) -> {
            try (InputStream in = req.body()) {
                res.send(in.readAllBytes());
            }
        });
        try (H2Server server = H2Server.start(echo); FrameClient c = FrameClient.open(server.port())) {
            c.headers(1, true, FrameClient.get("/"));
            c.response(1);
            awaitBackWithItsPoller(server);
            long before = onPollers(server);
            byte[] body = "a body that came whole".getBytes(StandardCharsets.UTF_8);
            ByteArrayOutputStream batch = new ByteArrayOutputStream();
            batch.write(TestFrames.frame(FrameClient.HEADERS, FrameClient.END_HEADERS, 3,
                    c.block(":method", "POST", ":scheme", "http", ":path", "/echo", ":authority", "localhost")));
            batch.write(TestFrames.frame(FrameClient.DATA, FrameClient.END_STREAM, 3, body));
            c.raw(batch.toByteArray());
            assertArrayEquals(body, c.response(3).body());
            TestWait.until("counted on the poller", 10, () -> onPollers(server) == before + 1);
            // A body still arriving: the stream waits for it on a worker.
            c.headers(5, false, ":method", "POST", ":scheme", "http", ":path", "/echo", ":authority", "localhost");
            c.data(5, "later".getBytes(StandardCharsets.UTF_8), true);
            assertEquals("later", text(c.response(5)));
        }
    }

    @Test
    void aLargeResponseOnThePollerWaitsForTheClientsWindowWithoutBlockingIt() throws Exception {
        byte[] big = new byte[1 << 20];
        new Random(11).nextBytes(big);
        Handler app = Handler.nonBlocking((req, res) -> {
            if (req.path().equals("/stream")) {
                try (var out = res.outputStream()) {
                    for (int i = 0; i < big.length; i += 10_000) {
                        out.write(big, i, Math.min(10_000, big.length - i));
                    }
                }
            } else if (req.path().equals("/big")) {
                res.send(big);
            } else {
                res.send(req.path().getBytes(StandardCharsets.UTF_8));
            }
        });
        try (H2Server server = H2Server.start(app); FrameClient c = FrameClient.open(server.port())) {
            c.headers(1, true, FrameClient.get("/warm"));
            c.response(1);
            awaitBackWithItsPoller(server);
            long before = onPollers(server);
            // 1 MiB against the default 64 KiB windows: the rest goes out as the client grants window.
            c.headers(3, true, FrameClient.get("/big"));
            assertArrayEquals(big, c.response(3).body());
            settle(c); // the client's last WINDOW_UPDATEs read: the connection is idle again
            awaitBackWithItsPoller(server);
            c.headers(5, true, FrameClient.get("/stream"));
            assertArrayEquals(big, c.response(5).body());
            settle(c);
            awaitBackWithItsPoller(server);
            c.headers(7, true, FrameClient.get("/small"));
            assertEquals("/small", text(c.response(7)));
            assertEquals(before + 3, onPollers(server), "each was started on the poller");
        }
    }

    @Test
    void moreThanOneBatchOfWindowIsFramedOnByAWorker() throws Exception {
        byte[] big = new byte[3 << 20];
        new Random(5).nextBytes(big);
        try (H2Server server = H2Server.start(Handler.nonBlocking((req, res) -> res.send(big)));
             FrameClient c = FrameClient.open(server.port())) {
            // Windows far larger than the body: only the batch bound stops the poller's framing.
            c.autoWindow(false); // nor WINDOW_UPDATEs on the streams, which would trip the control-frame guard
            c.settings(0x4, 1 << 30);
            c.windowUpdate(0, (1 << 30) - 65_535);
            settle(c);
            awaitBackWithItsPoller(server);
            long before = onPollers(server);
            for (int id = 1; id <= 5; id += 2) {
                c.headers(id, true, FrameClient.get("/big"));
                assertArrayEquals(big, c.response(id).body());
                settle(c);
                // The worker that framed the rest may answer the PING before it hands the
                // connection back: a request sent meanwhile would rightly go on on that worker.
                awaitBackWithItsPoller(server);
            }
            assertEquals(before + 3, onPollers(server), "each was started on the poller");
        }
    }

    @Test
    void anExchangeSuspendedOnThePollerIsAnsweredFromAnotherThread() throws Exception {
        LinkedBlockingQueue<SuspendedResponse> waiting =
                new LinkedBlockingQueue<>();
        AtomicReference<String> ranOn = new AtomicReference<>();
        Router app = new Router()
                .get("/poll", Handler.nonBlocking((req, res) -> {
                    ranOn.set(Thread.currentThread().getName());
                    waiting.add(res.suspend());
                }))
                .get("/now", ECHO_PATH);
        try (H2Server server = H2Server.start(app); FrameClient c = FrameClient.open(server.port())) {
            c.headers(1, true, FrameClient.get("/now"));
            c.response(1);
            c.headers(3, true, FrameClient.get("/poll"));
            SuspendedResponse s = waiting.poll(10, TimeUnit.SECONDS);
            assertTrue(s != null, "suspended");
            c.headers(5, true, FrameClient.get("/now")); // the connection goes on meanwhile
            assertEquals("/now", text(c.response(5)));
            s.send("news");
            assertEquals("news", text(c.response(3)));
            assertTrue(ranOn.get().contains("poller"), "/poll ran on the poller: " + ranOn.get());
        }
    }

    /** A PING answered: the frames the client sent before it were processed. */
    /** Waits until the one connection is idle with its poller again (KEEPALIVE, no worker running). */
    private static void awaitBackWithItsPoller(H2Server server) throws InterruptedException {
        TestWait.until("the connection back with its poller", 10, () -> {
            int keepAlive = 0;
            int active = 0;
            for (ChildStats ch : server.supervisor().children()) {
                keepAlive += ch.keepAliveConnections();
                active += ch.activeWorkers();
            }
            return keepAlive == 1 && active == 0;
        });
    }

    private static void settle(FrameClient c) throws Exception {
        c.ping(new byte[8]);
        c.expect(FrameClient.PING);
    }

    @Test
    void aPingOnAnIdleConnectionIsAnsweredAndTheConnectionGoesOn() throws Exception {
        try (H2Server server = H2Server.start(ECHO_PATH); FrameClient c = FrameClient.open(server.port())) {
            c.headers(1, true, FrameClient.get("/one"));
            c.response(1);
            byte[] payload = {1, 2, 3, 4, 5, 6, 7, 8};
            c.ping(payload);
            FrameClient.Frame ack = c.expect(FrameClient.PING);
            assertTrue(ack.has(FrameClient.ACK));
            assertArrayEquals(payload, ack.payload());
            c.headers(3, true, FrameClient.get("/two"));
            assertEquals("/two", text(c.response(3)));
        }
    }

    @Test
    void aConnectionErrorFoundByThePollerEndsTheConnectionWithGoAway() throws Exception {
        try (H2Server server = H2Server.start(ECHO_PATH); FrameClient c = FrameClient.open(server.port())) {
            c.headers(1, true, FrameClient.get("/one"));
            c.response(1);
            c.windowUpdate(0, 0); // a WINDOW_UPDATE of 0 on the connection: PROTOCOL_ERROR
            assertEquals(1, c.expectGoAway(), "PROTOCOL_ERROR");
            assertTrue(c.closedByServer());
        }
    }

    @Test
    void aClientThatClosesWhileIdleEndsTheConnection() throws Exception {
        try (H2Server server = H2Server.start(ECHO_PATH)) {
            FrameClient c = FrameClient.open(server.port());
            c.headers(1, true, FrameClient.get("/one"));
            c.response(1);
            c.close();
            TestWait.until("connection closed", 10, () -> server.supervisor().connectionsOpen() == 0);
        }
    }
}
