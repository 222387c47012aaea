package org.loommpm.engine;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.OutputStream;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/**
 * spamd's liveness ping, answered by the child's own engine: a child whose every worker is stuck
 * in a handler does not answer and is replaced (LM2010); an idle or merely busy one answers.
 */
class ChildPingTest {
    @Test
    void trackerCountsMissesInARowAndForgivesAnAnswer() {
        ChildPing p = new ChildPing(3);
        assertFalse(p.overdue(0), "nothing sent yet");
        int first = p.next();
        assertFalse(p.overdue(0));
        assertEquals(1, p.missed());
        p.next();
        assertFalse(p.overdue(first), "an older answer does not cover the newer ping");
        assertEquals(2, p.missed());
        int third = p.next();
        assertFalse(p.overdue(third), "answered: the count starts over");
        assertEquals(0, p.missed());
        p.next();
        p.overdue(third);
        p.next();
        p.overdue(third);
        p.next();
        assertTrue(p.overdue(third), "three in a row");
    }

    @Test
    void aChildWhoseWorkersAreAllStuckIsReplaced() throws Exception {
        CountDownLatch release = new CountDownLatch(1);
        AtomicInteger stuck = new AtomicInteger();
        List<Socket> clients = new ArrayList<>();
        try (SupervisorHarness.LogCapture log = new SupervisorHarness.LogCapture();
             SupervisorHarness h = new SupervisorHarness((req, res) -> {
                 if (req.path().equals("/stuck")) {
                     stuck.incrementAndGet();
                     release.await(); // a handler that never returns (until the test ends)
                 }
                 res.send("ok");
             }, c -> c.startServers(1).threadsPerChild(2).pollersPerChild(1)
                     .childPingInterval(Duration.ofMillis(200)).childPingMisses(2)
                     .gracefulShutdownTimeout(Duration.ofSeconds(1))
                     .maintenanceInterval(Duration.ofMillis(50)))) {
            Child first = h.serving().get(0);
            SupervisorHarness.waitFor("ready", 10, () -> first.state() == ChildState.READY);
            SupervisorHarness.waitFor("the first ping answered", 10, () -> first.pingAnswered() > 0);
            for (int i = 0; i < 2; i++) {
                Socket s = new Socket("127.0.0.1", h.port);
                clients.add(s);
                OutputStream out = s.getOutputStream();
                out.write("GET /stuck HTTP/1.1\r\nHost: t\r\n\r\n".getBytes(StandardCharsets.ISO_8859_1));
                out.flush();
            }
            SupervisorHarness.waitFor("every worker stuck", 10, () -> stuck.get() == 2);
            // Its pollers are fine (the watchdog sees nothing); only the ping can tell.
            SupervisorHarness.waitFor("the stuck child is sick", 10, () -> first.state() == ChildState.SICK);
            assertEquals(1, log.withId("LM2010").size(), "reported once");
            assertEquals(0, log.withId("LM0803").size(), "not the poller watchdog");
            SupervisorHarness.waitFor("a replacement serves", 10, () -> {
                List<Child> s = h.serving();
                return s.size() == 1 && s.get(0) != first && s.get(0).state() == ChildState.READY;
            });
            assertTrue(SupervisorHarness.get(h.port, 5000).startsWith("HTTP/1.1 200"), "the replacement answers");
            SupervisorHarness.waitFor("the stuck child ended by force after GracefulShutdownTimeout", 10,
                    first::exitRequested);
        } finally {
            release.countDown();
            for (Socket s : clients) {
                s.close();
            }
        }
    }

    @Test
    void aBusyChildWhoseSlotsComeFreeAnswers() throws Exception {
        // Every slot taken again and again by 30 ms handlers: the ping waits for a slot and gets one.
        try (SupervisorHarness.LogCapture log = new SupervisorHarness.LogCapture();
             SupervisorHarness h = new SupervisorHarness((req, res) -> {
                 Thread.sleep(30);
                 res.send("ok");
             }, c -> c.startServers(1).threadsPerChild(2).pollersPerChild(1)
                     .childPingInterval(Duration.ofMillis(200)).childPingMisses(2)
                     .maintenanceInterval(Duration.ofMillis(50)))) {
            Child only = h.serving().get(0);
            SupervisorHarness.waitFor("ready", 10, () -> only.state() == ChildState.READY);
            try (SupervisorHarness.Load load = new SupervisorHarness.Load(h.port, 4, Duration.ofSeconds(10))) {
                int before = only.pingAnswered();
                SupervisorHarness.waitFor("pings answered under load", 10, () -> only.pingAnswered() >= before + 3);
            }
            assertEquals(ChildState.READY, only.state());
            assertEquals(0, log.withId("LM2010").size());
        }
    }
}
