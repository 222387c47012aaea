package org.loommpm.engine;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.logging.LogRecord;
import org.junit.jupiter.api.Test;

/** Liveness: a wedged poller is detected, its child drained and replaced, the others keep serving. */
class ChildWatchdogTest {
    @Test
    void aWedgedPollerMakesItsChildSickAndAReplacementServes() throws Exception {
        CountDownLatch release = new CountDownLatch(1);
        try (SupervisorHarness.LogCapture log = new SupervisorHarness.LogCapture();
             SupervisorHarness h = new SupervisorHarness((req, res) -> res.send("ok"),
                     c -> c.startServers(2).threadsPerChild(8).pollersPerChild(1)
                             .childWatchdogTimeout(Duration.ofSeconds(1))
                             .maintenanceInterval(Duration.ofMillis(100)))) {
            SupervisorHarness.waitFor("two ready children", 10, () -> h.serving().size() == 2
                    && h.serving().stream().allMatch(c -> c.state() == ChildState.READY));
            Child wedged = h.serving().get(0);
            Child healthy = h.serving().get(1);
            // The load starts only once the poller is stuck: a connection it accepted just before
            // would be stuck with it (as in production), which is not what this test is about.
            CountDownLatch stalled = new CountDownLatch(1);
            h.starts.stallNextIteration(wedged.pollerArray()[0], () -> {
                stalled.countDown();
                awaitQuietly(release);
            });
            assertTrue(stalled.await(5, java.util.concurrent.TimeUnit.SECONDS), "the poller stalls");
            try (SupervisorHarness.Load load = new SupervisorHarness.Load(h.port, 4, Duration.ofSeconds(20))) {
                SupervisorHarness.waitFor("the wedged child is sick", 10, () -> wedged.state() == ChildState.SICK);
                SupervisorHarness.waitFor("a replacement serves beside the healthy child", 10, () -> {
                    List<Child> s = h.serving();
                    return s.size() == 2 && s.contains(healthy) && !s.contains(wedged)
                            && s.stream().allMatch(c -> c.state() == ChildState.READY);
                });
                Child replacement = h.serving().stream().filter(c -> c != healthy).findFirst().orElseThrow();
                long before = replacement.requests();
                SupervisorHarness.waitFor("the replacement takes requests", 10, () -> replacement.requests() > before);
                assertTrue(wedged.isStopping(), "the sick child's connections get the graceful-stop treatment");
                assertTrue(!wedged.accepting());
                load.close();
                assertEquals(List.of(), load.failures(), "new connections keep succeeding while a poller is stuck");
                assertTrue(load.ok.get() > 0);
            }
            List<LogRecord> reports = log.withId("LM0803");
            assertEquals(1, reports.size(), "reported once");
            Throwable trace = reports.get(0).getThrown();
            assertNotNull(trace, "the stuck poller's stack trace is logged");
            assertTrue(Arrays.stream(trace.getStackTrace()).anyMatch(e -> e.getMethodName().equals("awaitQuietly")),
                    "the trace shows where the poller is stuck: " + Arrays.toString(trace.getStackTrace()));
            release.countDown();
            wedged.exited().get(10, java.util.concurrent.TimeUnit.SECONDS);
            SupervisorHarness.waitFor("the sick child is gone from the children", 10,
                    () -> h.supervisor.children().stream().noneMatch(c -> c == wedged));
        } finally {
            release.countDown();
        }
    }

    @Test
    void aSickChildStillThereAfterGracefulShutdownTimeoutIsEndedByForce() throws Exception {
        CountDownLatch release = new CountDownLatch(1);
        try (SupervisorHarness.LogCapture log = new SupervisorHarness.LogCapture();
             SupervisorHarness h = new SupervisorHarness((req, res) -> res.send("ok"),
                     c -> c.startServers(1).threadsPerChild(4).pollersPerChild(2)
                             .childWatchdogTimeout(Duration.ofSeconds(1)).gracefulShutdownTimeout(Duration.ofSeconds(1))
                             .maintenanceInterval(Duration.ofMillis(100)))) {
            Child sick = h.serving().get(0);
            SupervisorHarness.waitFor("ready", 10, () -> sick.state() == ChildState.READY);
            // A keep-alive connection that poller 1 owns: the sick child cannot end while its poller is stuck.
            try (java.net.Socket idle = new java.net.Socket("127.0.0.1", h.port);
                 java.net.Socket other = new java.net.Socket("127.0.0.1", h.port)) {
                SupervisorHarness.waitFor("two connections open", 10, () -> sick.openConnections() == 2);
                h.starts.stallNextIteration(sick.pollerArray()[1], () -> awaitQuietly(release));
                SupervisorHarness.waitFor("sick", 10, () -> sick.state() == ChildState.SICK);
                SupervisorHarness.waitFor("ended by force after GracefulShutdownTimeout", 10, sick::exitRequested);
                assertEquals(1, log.withId("LM0804").size());
                assertTrue(!sick.exited().isDone(), "its stuck poller still holds a connection");
                release.countDown();
                sick.exited().get(10, java.util.concurrent.TimeUnit.SECONDS);
                assertEquals(-1, idle.getInputStream().read(), "the forced exit closed the connections");
            }
            assertTrue(SupervisorHarness.get(h.port, 5000).startsWith("HTTP/1.1 200"), "the replacement serves");
        } finally {
            release.countDown();
        }
    }

    @Test
    void zeroDisablesTheWatchdog() throws Exception {
        CountDownLatch release = new CountDownLatch(1);
        try (SupervisorHarness h = new SupervisorHarness((req, res) -> res.send("ok"),
                c -> c.startServers(1).threadsPerChild(4).pollersPerChild(1).childWatchdogTimeout(Duration.ZERO)
                        .maintenanceInterval(Duration.ofMillis(100)))) {
            Child only = h.serving().get(0);
            SupervisorHarness.waitFor("ready", 10, () -> only.state() == ChildState.READY);
            h.starts.stallNextIteration(only.pollerArray()[0], () -> awaitQuietly(release));
            Thread.sleep(1500);
            assertEquals(ChildState.READY, only.state());
            assertEquals(List.of(only), h.serving());
            release.countDown();
            assertTrue(SupervisorHarness.get(h.port, 5000).startsWith("HTTP/1.1 200"));
        } finally {
            release.countDown();
        }
    }

    @Test
    void aChildThatCannotStartIsRetriedWithBackOff() throws Exception {
        try (SupervisorHarness.LogCapture log = new SupervisorHarness.LogCapture();
             SupervisorHarness h = new SupervisorHarness((req, res) -> res.send("ok"),
                     c -> c.startServers(2).threadsPerChild(4).pollersPerChild(1)
                             .maintenanceInterval(Duration.ofMillis(50)),
                     s -> s.starts.failNext(3))) {
            // Attempts: child A fails, child B fails, A again (after 100 ms) fails, then succeeds; B is retried later.
            assertEquals(1, h.serving().size(), "start() returns once one child of the generation runs");
            SupervisorHarness.waitFor("the missing child started on a later attempt", 10, () -> h.serving().size() == 2);
            assertEquals(3, log.withId("LM0805").size());
            assertTrue(SupervisorHarness.get(h.port, 5000).startsWith("HTTP/1.1 200"));
        }
    }

    @Test
    void aGenerationOfWhichNoChildStartsFailsClearly() throws Exception {
        java.io.IOException e = org.junit.jupiter.api.Assertions.assertThrows(java.io.IOException.class,
                () -> new SupervisorHarness((req, res) -> res.send("ok"), c -> c.startServers(2).pollersPerChild(1),
                        s -> s.starts.failNext(1000)).close());
        assertTrue(e.getMessage().contains("no child of generation 1 could start after " + Backoff.START_ATTEMPTS
                + " attempts"), e.getMessage());
    }

    @Test
    void aRestartWhoseChildrenCannotStartKeepsTheOldGeneration() throws Exception {
        try (SupervisorHarness h = new SupervisorHarness((req, res) -> res.send("ok"),
                c -> c.startServers(1).threadsPerChild(4).pollersPerChild(1))) {
            Child old = h.serving().get(0);
            h.starts.failNext(1000);
            var next = org.loommpm.config.ServerConfig.builder()
                    .listen(new java.net.InetSocketAddress("127.0.0.1", h.port)).threadsPerChild(4).pollersPerChild(1)
                    .build();
            org.junit.jupiter.api.Assertions.assertThrows(java.io.IOException.class, () -> h.supervisor.restart(next,
                    org.loommpm.protocol.Protocols.initial(next, (req, res) -> res.send("new"), null)));
            h.starts.failNext(0);
            assertEquals(1, h.supervisor.generation());
            assertEquals(List.of(old), h.serving());
            assertTrue(SupervisorHarness.get(h.port, 5000).endsWith("ok"));
        }
    }

    private static void awaitQuietly(CountDownLatch latch) {
        try {
            latch.await();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
