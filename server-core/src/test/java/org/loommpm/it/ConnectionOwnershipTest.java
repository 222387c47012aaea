package org.loommpm.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.loommpm.server.LoomServer;
import org.loommpm.engine.ChildStats;
import org.loommpm.engine.EngineStats;
import org.loommpm.testsupport.RawHttp;
import org.loommpm.testsupport.TestServers;

/**
 * Ownership invariants under races: a keep-alive deadline and the next request arriving at the
 * same moment are decided once (the request is served exactly once, or the connection is closed
 * before it was read — never both, never twice), and every connection ends and returns its
 * context exactly once.
 */
class ConnectionOwnershipTest {
    @Test
    void keepAliveDeadlineRacingReadinessProcessesOnce() throws Exception {
        AtomicInteger handled = new AtomicInteger();
        try (LoomServer server = TestServers.start((req, res) -> {
            handled.incrementAndGet();
            res.send("x");
        }, c -> c.keepAliveTimeout(Duration.ofMillis(20)).pollersPerChild(2))) {
            int responses = 0;
            int closedFirst = 0;
            int rounds = 300;
            List<Thread> clients = new ArrayList<>();
            AtomicInteger resp = new AtomicInteger();
            AtomicInteger closed = new AtomicInteger();
            AtomicInteger wrong = new AtomicInteger();
            for (int t = 0; t < 4; t++) {
                clients.add(Thread.ofPlatform().start(() -> {
                    for (int i = 0; i < rounds / 4; i++) {
                        try (RawHttp c = new RawHttp(server.port(), 5_000)) {
                            c.send("GET /a HTTP/1.1\r\nHost: x\r\n\r\n");
                            if (c.read().status() != 200) {
                                wrong.incrementAndGet();
                            }
                            resp.incrementAndGet();
                            // Aim the next request at the keep-alive deadline (20 ms, timer granularity 1 ms).
                            Thread.sleep(18 + ThreadLocalRandom.current().nextInt(5));
                            try {
                                c.send("GET /b HTTP/1.1\r\nHost: x\r\n\r\n");
                                RawHttp.Response r = c.read();
                                if (r.status() != 200) {
                                    wrong.incrementAndGet();
                                }
                                resp.incrementAndGet();
                                // After a served request the connection must still be usable exactly once more.
                            } catch (IOException e) {
                                closed.incrementAndGet();
                            }
                        } catch (IOException | InterruptedException e) {
                            wrong.incrementAndGet();
                        }
                    }
                }));
            }
            for (Thread t : clients) {
                t.join();
            }
            responses = resp.get();
            closedFirst = closed.get();
            assertEquals(0, wrong.get(), "a request failed or was answered wrongly");
            assertEquals(rounds * 2, responses + closedFirst, "every second request is answered or refused by a close");
            assertEquals(responses, handled.get(), "handler invocations == responses: nothing processed twice");
            TestServers.waitFor("all connections ended", 20, () -> server.stats().connectionsOpen() == 0);
            assertEquals(server.stats().connectionsAccepted(), server.stats().connectionsClosed());
            ChildStats child = EngineStats.of(server.stats()).children().get(0);
            assertEquals(0, child.contextsHeld(), "every context returned");
            assertTrue(child.timersFired() > 0, "the deadlines did fire in this test");
        }
    }

    /**
     * An idle hand-back that does not wake its poller (the read interest is still armed) is
     * still applied when nothing else happens: with no other traffic and no timer pending, the
     * poller's bounded sleep takes it in, the connection is counted parked, and the keep-alive
     * deadline closes it. Sequential requests on one connection (each handed back idle) are all
     * answered.
     */
    @Test
    void idleHandBackWithoutWakeUpIsAppliedAndTimedOut() throws Exception {
        try (LoomServer server = TestServers.start((req, res) -> res.send("x"),
                c -> c.keepAliveTimeout(Duration.ofMillis(300)).pollersPerChild(1))) {
            ChildStats child = EngineStats.of(server.stats()).children().get(0);
            try (RawHttp c = new RawHttp(server.port(), 10_000)) {
                for (int i = 0; i < 50; i++) { // below MaxKeepAliveRequests (100)
                    c.send("GET /a HTTP/1.1\r\nHost: x\r\n\r\n");
                    assertEquals(200, c.read().status(), "request " + i);
                }
                TestServers.waitFor("the idle connection counted parked", 5, () -> child.keepAliveConnections() == 1);
                long idleSince = System.nanoTime();
                assertTrue(c.closedByServer(), "the keep-alive deadline closed it");
                long waitedMs = (System.nanoTime() - idleSince) / 1_000_000;
                assertTrue(waitedMs < 3_000, "closed " + waitedMs + " ms after being parked");
            }
            TestServers.waitFor("the connection ended", 5, () -> server.stats().connectionsOpen() == 0);
            assertEquals(0, child.contextsHeld(), "its context returned");
        }
    }
}
