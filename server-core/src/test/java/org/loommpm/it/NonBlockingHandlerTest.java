package org.loommpm.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.logging.Level;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.loommpm.api.Handler;
import org.loommpm.api.HttpException;
import org.loommpm.server.LoomServer;
import org.loommpm.api.Request;
import org.loommpm.api.Response;
import org.loommpm.api.Router;
import org.loommpm.engine.ChildStats;
import org.loommpm.engine.EngineStats;
import org.loommpm.engine.PollerStats;
import org.loommpm.testsupport.LogCapture;
import org.loommpm.testsupport.RawHttp;
import org.loommpm.testsupport.TestServers;

/**
 * Handlers marked non-blocking run on the poller that read their request (no virtual thread),
 * on whole requests of connections that served one before; everything else still runs on a
 * virtual thread. Each response names the thread that answered it.
 */
class NonBlockingHandlerTest {
    /** More than loopback's socket buffers take at once: the rest is queued. */
    private static final int BIG = 24 << 20;
    private static LoomServer server;

    @BeforeAll
    static void start() throws Exception {
        Router r = new Router()
                .get("/nb", Handler.nonBlocking((q, s) -> s.send(where())))
                .post("/nb", Handler.nonBlocking((q, s) -> s.send(where() + " " + q.bodyString())))
                .get("/blocking", (q, s) -> s.send(where()))
                .get("/fail", Handler.nonBlocking((q, s) -> {
                    throw new IllegalStateException("handler bug");
                }))
                .get("/teapot", Handler.nonBlocking((q, s) -> {
                    throw new HttpException(418, "short and stout");
                }))
                .get("/big", Handler.nonBlocking((q, s) -> s.send(new byte[BIG])))
                .get("/later", Handler.nonBlocking(NonBlockingHandlerTest::answerLater))
                .get("/later-blocking", NonBlockingHandlerTest::answerLater);
        server = TestServers.start(r);
    }

    @AfterAll
    static void stop() {
        server.close();
    }

    /** Suspends, and answers 50 ms later from another thread, naming the thread that suspended. */
    private static void answerLater(Request q, Response s) {
        String w = where();
        var suspended = s.suspend();
        Thread.ofVirtual().start(() -> {
            try {
                Thread.sleep(50);
                suspended.send("later from " + w);
            } catch (Exception e) {
                throw new IllegalStateException(e);
            }
        });
    }

    /** Connections handed to a worker so far (a request the poller declined counts here). */
    private static long dispatches() {
        return EngineStats.of(server.stats()).children().stream().mapToLong(ChildStats::dispatches).sum();
    }

    private static String where() {
        Thread t = Thread.currentThread();
        return (t.isVirtual() ? "virtual" : "platform") + ":" + t.getName();
    }

    private static String get(RawHttp c, String path) throws Exception {
        RawHttp.Response res = c.send("GET " + path + " HTTP/1.1\r\nHost: x\r\n\r\n").read();
        assertEquals(200, res.status(), res.text());
        return res.text();
    }

    @Test
    void nonBlockingRouteRunsOnThePollerFromTheFirstRequest() throws Exception {
        try (RawHttp c = new RawHttp(server.port())) {
            // A cleartext connection's first request too: its bytes are not a preface.
            for (int i = 0; i < 3; i++) {
                String w = get(c, "/nb");
                assertTrue(w.startsWith("platform:loom-c") && w.contains("-poller-"), w);
            }
            assertTrue(get(c, "/blocking").startsWith("virtual:"), "blocking routes stay on virtual threads");
            assertTrue(get(c, "/nb").contains("-poller-"));
        }
    }

    @Test
    void aConnectionPerRequestClientIsServedOnThePollerAndSeesTheClose() throws Exception {
        for (int i = 0; i < 3; i++) {
            try (RawHttp c = new RawHttp(server.port())) {
                c.send("GET /nb HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n");
                RawHttp.Response res = c.read();
                assertEquals(200, res.status());
                assertTrue(res.text().contains("-poller-"), res.text());
                assertEquals("close", res.header("connection"));
                assertTrue(c.closedByServer());
            }
        }
    }

    @Test
    void aClientThatSentItsRequestAndItsFinGetsTheWholeAnswer() throws Exception {
        // The poller finds this FIN when it starts the close and closes at once (no shutdown, no
        // LINGER wait); the client sees the same as after a lingering close, so what is checked
        // is that this path loses nothing: the whole answer, then the close.
        try (RawHttp c = new RawHttp(server.port())) {
            c.send("GET /nb HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n");
            c.shutdownOutput();
            RawHttp.Response res = c.read();
            assertEquals(200, res.status());
            assertTrue(res.text().contains("-poller-"), res.text());
            assertTrue(c.closedByServer());
        }
    }

    @Test
    void aNonBlockingHandlerMaySuspendItsResponse() throws Exception {
        try (RawHttp c = new RawHttp(server.port())) {
            get(c, "/nb");
            String later = get(c, "/later");
            assertTrue(later.startsWith("later from platform:") && later.contains("-poller-"), later);
            // The answer's end was counted on the poller, which serves the next request too.
            assertTrue(get(c, "/nb").contains("-poller-"), "then back to the poller");
        }
    }

    @Test
    void anAnsweredSuspensionIsCountedByThePollerWithNoWorker() throws Exception {
        long before = server.stats().requests();
        long inlineBefore = inlineRequests();
        try (RawHttp c = new RawHttp(server.port())) {
            for (int i = 0; i < 3; i++) {
                assertTrue(get(c, "/later").contains("-poller-"));
                assertTrue(get(c, "/nb").contains("-poller-"), "the next request is the poller's at once");
            }
        }
        TestServers.waitFor("requests counted", 5, () -> server.stats().requests() >= before + 6);
        assertTrue(inlineRequests() >= inlineBefore + 6, "the suspended ones counted where they ended: inline");
    }

    @Test
    void aRequestPipelinedBehindASuspendedOneIsServedWhenItsAnswerIsOut() throws Exception {
        try (RawHttp c = new RawHttp(server.port())) {
            c.send("GET /later HTTP/1.1\r\nHost: x\r\n\r\nGET /nb HTTP/1.1\r\nHost: x\r\n\r\n");
            RawHttp.Response first = c.read();
            RawHttp.Response second = c.read();
            assertEquals(200, first.status());
            assertTrue(first.text().startsWith("later from "), first.text());
            assertEquals(200, second.status());
            assertTrue(second.text().startsWith("platform:") && second.text().contains("-poller-"), second.text());
            assertTrue(get(c, "/nb").contains("-poller-"));
        }
    }

    @Test
    void aBlockingRouteThatSuspendedResumesAndItsNextRequestStillGoesToAWorker() throws Exception {
        try (RawHttp c = new RawHttp(server.port())) {
            assertTrue(get(c, "/later-blocking").startsWith("later from virtual:"));
            assertTrue(get(c, "/blocking").startsWith("virtual:"), "a blocking route after the resume");
            assertTrue(get(c, "/later-blocking").startsWith("later from virtual:"));
            assertTrue(get(c, "/nb").contains("-poller-"));
        }
    }

    @Test
    void unmarkedHandlersAndMissesStayOnVirtualThreads() throws Exception {
        try (RawHttp c = new RawHttp(server.port())) {
            get(c, "/blocking");
            assertTrue(get(c, "/blocking").startsWith("virtual:"));
            assertEquals(404, c.send("GET /nothing HTTP/1.1\r\nHost: x\r\n\r\n").read().status());
        }
    }

    @Test
    void aHeadTheScannerRefusesIsAnsweredAsOnAWorker() throws Exception {
        try (RawHttp c = new RawHttp(server.port())) {
            get(c, "/nb");
            // HTTP/0.9 (no version): refused by the head scanner itself, not by the parser.
            assertEquals(400, c.send("GET /nb\r\n\r\n").read().status());
        }
    }

    @Test
    void aHeadStillComingGoesToAWorkerWhichReadsItsRest() throws Exception {
        try (RawHttp c = new RawHttp(server.port())) {
            get(c, "/nb");
            long before = dispatches();
            c.send("GET /nb HTTP/1.1\r\nHo");
            TestServers.waitFor("the poller saw part of the head and handed it to a worker", 10,
                    () -> dispatches() > before);
            RawHttp.Response res = c.send("st: x\r\n\r\n").read();
            assertEquals(200, res.status(), res.text());
            assertTrue(get(c, "/nb").contains("-poller-"), "then back to the poller");
        }
    }

    @Test
    void aBodyAlreadyReadIsServedInlineOneStillComingGoesToAWorker() throws Exception {
        try (RawHttp c = new RawHttp(server.port())) {
            get(c, "/nb");
            String whole = c.send("POST /nb HTTP/1.1\r\nHost: x\r\nContent-Length: 5\r\n\r\nhello").read().text();
            assertTrue(whole.contains("-poller-") && whole.endsWith(" hello"), whole);
            long before = dispatches();
            c.send("POST /nb HTTP/1.1\r\nHost: x\r\nContent-Length: 5\r\n\r\nhe");
            TestServers.waitFor("the poller saw the head and part of the body and handed them to a worker", 10,
                    () -> dispatches() > before);
            String split = c.send("llo").read().text();
            assertTrue(split.startsWith("virtual:") && split.endsWith(" hello"), split);
            String chunked = c.send("POST /nb HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\n"
                    + "5\r\nhello\r\n0\r\n\r\n").read().text();
            assertTrue(chunked.startsWith("virtual:") && chunked.endsWith(" hello"), chunked);
        }
    }

    @Test
    void pipelinedRequestsAreAnsweredInOrderWithABoundPerTurn() throws Exception {
        try (RawHttp c = new RawHttp(server.port())) {
            get(c, "/nb");
            int n = 40; // more than the 16 a poller serves of one connection per turn
            c.send(posts(n));
            List<String> answers = new ArrayList<>();
            for (int i = 0; i < n; i++) {
                String a = c.read().text();
                assertTrue(a.endsWith(String.format(" %02d", i)), a);
                answers.add(a);
            }
            long inline = answers.stream().filter(a -> a.contains("-poller-")).count();
            assertTrue(inline >= 1 && inline <= 16, answers.toString());
            // What is left of a burst after the bound continues on a worker.
            assertTrue(answers.stream().anyMatch(a -> a.startsWith("virtual:")), answers.toString());
        }
    }

    @Test
    void aBurstWithinTheBoundIsAnsweredWholeByThePoller() throws Exception {
        try (RawHttp c = new RawHttp(server.port())) {
            get(c, "/nb");
            // Twice: the second burst finds the connection back on the poller, not on a worker.
            for (int burst = 0; burst < 2; burst++) {
                c.send(posts(16));
                for (int i = 0; i < 16; i++) {
                    String a = c.read().text();
                    assertTrue(a.contains("-poller-") && a.endsWith(String.format(" %02d", i)), a);
                }
            }
        }
    }

    /** {@code n} pipelined POSTs to {@code /nb} with the bodies 00, 01, ..., in one string. */
    private static String posts(int n) {
        StringBuilder burst = new StringBuilder();
        for (int i = 0; i < n; i++) {
            burst.append("POST /nb HTTP/1.1\r\nHost: x\r\nContent-Length: 2\r\n\r\n")
                    .append(String.format("%02d", i));
        }
        return burst.toString();
    }

    @Test
    void aHandlerThatThrowsGetsTheSameAnswerAsOnAWorker() throws Exception {
        try (LogCapture log = new LogCapture(); RawHttp c = new RawHttp(server.port())) {
            get(c, "/nb");
            RawHttp.Response failed = c.send("GET /fail HTTP/1.1\r\nHost: x\r\n\r\n").read();
            assertEquals(500, failed.status());
            assertEquals("close", failed.header("connection"), "as on a worker, a 500 closes the connection");
            assertFalse(log.errors().isEmpty(), "the 500's cause is logged");
        }
        try (RawHttp c = new RawHttp(server.port())) {
            get(c, "/nb");
            RawHttp.Response teapot = c.send("GET /teapot HTTP/1.1\r\nHost: x\r\n\r\n").read();
            assertEquals(418, teapot.status());
            assertEquals("close", teapot.header("connection"));
        }
        try (RawHttp c = new RawHttp(server.port())) {
            get(c, "/nb");
            assertTrue(get(c, "/nb").contains("-poller-"), "the poller goes on");
        }
    }

    @Test
    void aResponseTheSocketCannotTakeIsFinishedByThePoller() throws Exception {
        try (RawHttp c = new RawHttp(server.port(), 20_000)) {
            get(c, "/nb");
            c.send("GET /big HTTP/1.1\r\nHost: x\r\n\r\n");
            Thread.sleep(200); // the server's socket fills: the rest is queued for the poller
            RawHttp.Response res = c.read();
            assertEquals(200, res.status());
            assertEquals(BIG, res.body().length);
            // A worker wrote the rest; the connection goes on, and back to the poller.
            get(c, "/nb");
            assertTrue(get(c, "/nb").contains("-poller-"));
        }
    }

    @Test
    void aLastResponseTheSocketCannotTakeIsWrittenBeforeTheClose() throws Exception {
        try (RawHttp c = new RawHttp(server.port(), 20_000)) {
            get(c, "/nb");
            c.send("GET /big HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n");
            Thread.sleep(200);
            RawHttp.Response res = c.read();
            assertEquals(200, res.status());
            assertEquals(BIG, res.body().length);
            assertTrue(c.closedByServer());
        }
    }

    @Test
    void inlineRequestsAreCountedInTheTotals() throws Exception {
        long before = server.stats().requests();
        long inlineBefore = inlineRequests();
        try (RawHttp c = new RawHttp(server.port())) {
            for (int i = 0; i < 5; i++) {
                get(c, "/nb");
            }
        }
        TestServers.waitFor("requests counted", 5, () -> server.stats().requests() >= before + 5);
        assertTrue(inlineRequests() >= inlineBefore + 4, "4 of the 5 served inline");
    }

    private static long inlineRequests() {
        long n = 0;
        for (ChildStats ch : EngineStats.of(server.stats()).children()) {
            for (PollerStats p : ch.pollerStats()) {
                n += p.inlineRequests();
            }
        }
        return n;
    }

    @Test
    void aHandlerThatBlocksThePollerIsReported() throws Exception {
        // A server of its own: LM2500 is logged once a minute per poller, and the shared one's
        // pollers may have reported a slow first call already.
        Router r = new Router()
                .get("/nb", Handler.nonBlocking((q, s) -> s.send(where())))
                .get("/slow", Handler.nonBlocking((q, s) -> {
                    Thread.sleep(1500); // breaks the contract on purpose: the check must see it
                    s.send(where());
                }));
        LoomServer own = TestServers.start(r, c -> c.nonBlockingHandlerLimit(Duration.ofMillis(500)));
        try (LogCapture log = new LogCapture(); RawHttp c = new RawHttp(own.port(), 10_000)) {
            get(c, "/nb");
            String w = get(c, "/slow");
            assertTrue(w.contains("-poller-"), w);
            TestServers.waitFor("LM2500", 5, () -> !log.find(Level.WARNING, "LM2500").isEmpty());
            assertTrue(log.find(Level.WARNING, "LM2500").get(0).getMessage().contains("/slow")
                    || log.find(Level.WARNING, "LM2500").get(0).getParameters()[4].equals("/slow"));
            // The supervisor looks once a second: a 1.5 s stall is seen while it lasts, with its stack.
            var stuck = log.find(Level.WARNING, "LM2501");
            assertEquals(1, stuck.size(), "one report per stall");
            assertTrue(stuck.get(0).getThrown().getStackTrace().length > 0);
        } finally {
            own.close();
        }
    }

    @Test
    void gracefulStopWithInlineTrafficAnswersWhatWasSent() throws Exception {
        LoomServer s = TestServers.start(new Router().get("/nb", Handler.nonBlocking((q, r) -> r.send("ok"))));
        try (RawHttp c = new RawHttp(s.port())) {
            assertEquals(200, c.send("GET /nb HTTP/1.1\r\nHost: x\r\n\r\n").read().status());
            assertEquals(200, c.send("GET /nb HTTP/1.1\r\nHost: x\r\n\r\n").read().status());
            c.send("GET /nb HTTP/1.1\r\nHost: x\r\n\r\n");
            RawHttp.Response last = c.read();
            assertEquals(200, last.status());
            Thread closer = Thread.ofPlatform().start(s::close);
            closer.join(10_000);
            assertFalse(closer.isAlive(), "the stop finished");
            assertTrue(c.closedByServer(), "the idle connection is closed by the stop");
        } finally {
            s.close();
        }
    }
}
