package org.loommpm.http2.it;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.Random;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.loommpm.api.Handler;
import org.loommpm.engine.ChildStats;
import org.loommpm.engine.FailStop;
import org.loommpm.http2.frame.TestFrames;

/**
 * The single-request path: the frame loop runs a lone complete request's handler on its own
 * worker (InlineRun). Checks that it is taken, that a handler which blocks there does not hold
 * up the connection's other streams (the watcher hands the loop to a new task), that a response
 * too large to write without the loop still arrives (the handler's wait hands it over), and
 * that requests which are not complete, or come several in one batch, still get their own tasks.
 */
class InlineStreamTest {
    private static final CountDownLatch NEVER = new CountDownLatch(1);

    /** /slow waits for {@code release}; anything else answers its path at once. */
    private static Handler slowOrFast(CountDownLatch slowStarted, CountDownLatch release) {
        return (req, res) -> {
            if (req.path().equals("/slow")) {
                slowStarted.countDown();
                assertTrue(release.await(20, TimeUnit.SECONDS));
            }
            res.send(req.path().getBytes(StandardCharsets.UTF_8));
        };
    }

    @Test
    void loneRequestsRunOnTheFrameLoop() throws Exception {
        try (H2Server server = H2Server.start(slowOrFast(NEVER, NEVER)); FrameClient c = FrameClient.open(server.port())) {
            for (int i = 0; i < 5; i++) {
                int id = 1 + 2 * i;
                c.headers(id, true, FrameClient.get("/one" + i));
                assertEquals("/one" + i, new String(c.response(id).body(), StandardCharsets.UTF_8));
            }
            assertEquals(5, server.stats().streamsStarted());
            assertEquals(5, server.stats().streamsInline(), "each lone request ran inline");
        }
    }

    /**
     * Out of memory in a handler the frame loop runs itself is not answered as a handler's
     * failure: it ends the server (fail-stop), and the loop's worker, which still owns the
     * connection, closes it on its way out.
     */
    @Test
    void outOfMemoryInAnInlineHandlerClosesTheConnectionAndIsFatal() throws Exception {
        java.util.concurrent.CompletableFuture<FailStop.Kind> fatal = new java.util.concurrent.CompletableFuture<>();
        Handler oom = (req, res) -> {
            throw new OutOfMemoryError("test: thrown by the handler");
        };
        try (H2Server server = H2Server.start(oom, s -> s, b -> b, null, (kind, thread, error) -> fatal.complete(kind));
             FrameClient c = FrameClient.open(server.port())) {
            c.headers(1, true, FrameClient.get("/oom"));
            assertTrue(c.closedByServer(), "the connection is closed, not left open");
            assertEquals(FailStop.Kind.OUT_OF_MEMORY, fatal.get(10, TimeUnit.SECONDS));
            assertEquals(1, server.stats().streamsInline(), "the handler ran on the frame loop");
            TestWait.until("no connection left open", 10, () -> server.supervisor().connectionsOpen() == 0);
        }
    }

    @Test
    void aBlockedInlineHandlerDoesNotHoldTheConnection() throws Exception {
        CountDownLatch started = new CountDownLatch(1);
        CountDownLatch release = new CountDownLatch(1);
        try (H2Server server = H2Server.start(slowOrFast(started, release)); FrameClient c = FrameClient.open(server.port())) {
            c.headers(1, true, FrameClient.get("/slow"));
            assertTrue(started.await(10, TimeUnit.SECONDS));
            assertEquals(1, server.stats().streamsInline(), "the lone /slow ran inline");
            c.headers(3, true, FrameClient.get("/fast"));
            c.ping(new byte[8]);
            assertEquals("/fast", new String(c.response(3).body(), StandardCharsets.UTF_8));
            assertEquals(1, release.getCount(), "/fast was answered while /slow still blocked");
            release.countDown();
            assertEquals("/slow", new String(c.response(1).body(), StandardCharsets.UTF_8));
            c.headers(5, true, FrameClient.get("/after"));
            assertEquals("/after", new String(c.response(5).body(), StandardCharsets.UTF_8));
        }
    }

    /**
     * A frame loop may run holding no worker slot (a connection with work in progress is
     * dispatched to its owner at once, slot or not: its own stream tasks may hold them all). A
     * lone request such a loop reads must wait for a slot as its own task, not run inline outside
     * the worker limit, where it once hit the scoreboard at row -1 and failed the connection.
     * One slot: connection b is left mid-frame (its loop hands it back MULTIPLEXED), a's handler
     * takes the slot, then b's request completes.
     */
    @Test
    void aLoopWithoutASlotRunsNoHandlerInline() throws Exception {
        CountDownLatch started = new CountDownLatch(1);
        CountDownLatch release = new CountDownLatch(1);
        try (H2Server server = H2Server.start(slowOrFast(started, release), s -> s, b -> b.threadsPerChild(1));
             FrameClient a = FrameClient.open(server.port()); FrameClient b = FrameClient.open(server.port())) {
            ChildStats child = server.supervisor().children().get(0);
            TestWait.until("both connections idle", 10,
                    () -> child.keepAliveConnections() == 2 && child.activeWorkers() == 0);
            byte[] fast = TestFrames.frame(FrameClient.HEADERS, FrameClient.END_HEADERS | FrameClient.END_STREAM, 1,
                    b.block(FrameClient.get("/fast")));
            b.raw(Arrays.copyOf(fast, 5));
            TestWait.until("b handed back mid-frame (no longer idle, no worker)", 10,
                    () -> child.keepAliveConnections() == 1 && child.activeWorkers() == 0);
            a.headers(1, true, FrameClient.get("/slow"));
            assertTrue(started.await(10, TimeUnit.SECONDS));
            b.raw(Arrays.copyOfRange(fast, 5, fast.length));
            b.ping(new byte[8]);
            b.expect(FrameClient.PING); // b's loop runs (without a slot) and answers
            assertEquals(1, release.getCount(), "/slow still holds the only slot");
            release.countDown();
            assertEquals("/slow", new String(a.response(1).body(), StandardCharsets.UTF_8));
            assertEquals("/fast", new String(b.response(1).body(), StandardCharsets.UTF_8));
            b.headers(3, true, FrameClient.get("/after"));
            assertEquals("/after", new String(b.response(3).body(), StandardCharsets.UTF_8));
            assertEquals(3, server.stats().streamsStarted());
        }
    }

    @Test
    void streamsOfOneBatchRunConcurrently() throws Exception {
        CountDownLatch started = new CountDownLatch(1);
        CountDownLatch release = new CountDownLatch(1);
        try (H2Server server = H2Server.start(slowOrFast(started, release)); FrameClient c = FrameClient.open(server.port())) {
            c.getsInOneWrite(1, "/slow", "/fast");
            assertEquals("/fast", new String(c.response(3).body(), StandardCharsets.UTF_8));
            assertEquals(1, release.getCount(), "/fast was answered while /slow still blocked");
            release.countDown();
            assertEquals("/slow", new String(c.response(1).body(), StandardCharsets.UTF_8));
        }
    }

    @Test
    void aLargeResponseFromAnInlineHandlerArrivesWhole() throws Exception {
        byte[] big = new byte[3 << 20];
        new Random(7).nextBytes(big);
        try (H2Server server = H2Server.start((req, res) -> {
            if (req.path().equals("/stream")) {
                try (var out = res.outputStream()) {
                    for (int i = 0; i < big.length; i += 10_000) {
                        out.write(big, i, Math.min(10_000, big.length - i));
                    }
                }
            } else {
                res.send(big);
            }
        }); FrameClient c = FrameClient.open(server.port())) {
            c.headers(1, true, FrameClient.get("/send"));
            assertArrayEquals(big, c.response(1).body());
            c.headers(3, true, FrameClient.get("/stream"));
            assertArrayEquals(big, c.response(3).body());
            c.headers(5, true, FrameClient.get("/send"));
            assertArrayEquals(big, c.response(5).body());
            assertTrue(server.stats().streamsInline() >= 1, "the lone requests ran inline");
        }
    }

    /**
     * Stress for the RUNNING → IDLE / ESCAPED race: handlers that take 0-9 ms (around the
     * watcher's 5 ms) and sometimes answer with a body that must escape to be written, on eight
     * connections at once; every response must arrive whole and in its stream.
     */
    @Test
    void escapesRacingTheHandlersEndLoseNothing() throws Exception {
        try (H2Server server = H2Server.start((req, res) -> {
            int n = Integer.parseInt(req.queryParam("n"));
            Thread.sleep(n % 10);
            res.send(body(n));
        })) {
            var pool = java.util.concurrent.Executors.newFixedThreadPool(8);
            try {
                var results = new java.util.ArrayList<java.util.concurrent.Future<?>>();
                for (int conn = 0; conn < 8; conn++) {
                    int base = conn * 1000;
                    results.add(pool.submit(() -> {
                        try (FrameClient c = FrameClient.open(server.port())) {
                            for (int i = 0; i < 30; i++) {
                                int id = 1 + 2 * i;
                                int n = base + i * 7;
                                c.headers(id, true, FrameClient.get("/?n=" + n));
                                assertArrayEquals(body(n), c.response(id).body(), "request " + n);
                            }
                        }
                        return null;
                    }));
                }
                for (var f : results) {
                    f.get(60, TimeUnit.SECONDS);
                }
            } finally {
                pool.shutdownNow();
            }
            assertEquals(240, server.stats().streamsStarted());
            assertTrue(server.stats().streamsInline() > 0, "some ran inline");
        }
    }

    /** Every third answer is larger than a stream task may leave unwritten (64 KiB): it must escape. */
    private static byte[] body(int n) {
        byte[] b = new byte[n % 3 == 0 ? 100_000 + n : 10 + n % 100];
        new Random(n).nextBytes(b);
        return b;
    }

    @Test
    void aBodyLargerThanTheWindowIsReadByItsOwnTask() throws Exception {
        int window = 16_384;
        byte[] body = new byte[10 * window + 123];
        new Random(3).nextBytes(body);
        try (H2Server server = H2Server.start((req, res) -> {
            try (InputStream in = req.body()) {
                res.send(in.readAllBytes());
            }
        }, s -> s.withWindowSize(window)); FrameClient c = FrameClient.open(server.port())) {
            c.headers(1, false, ":method", "POST", ":scheme", "http", ":path", "/echo", ":authority", "localhost");
            int credit = window; // the stream's window, whichever initial one applies
            for (int off = 0; off < body.length; ) {
                while (credit <= 0) {
                    FrameClient.Frame f = c.read();
                    if (f.type() == FrameClient.WINDOW_UPDATE && f.stream() == 1) {
                        credit += f.int32(0) & 0x7fffffff;
                    }
                }
                int n = Math.min(Math.min(4096, credit), body.length - off);
                c.data(1, java.util.Arrays.copyOfRange(body, off, off + n), off + n == body.length);
                off += n;
                credit -= n;
            }
            assertArrayEquals(body, c.response(1).body());
            assertEquals(0, server.stats().streamsInline(), "a request still arriving gets its own task");
        }
    }
}
