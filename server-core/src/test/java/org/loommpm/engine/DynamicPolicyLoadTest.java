package org.loommpm.engine;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.FutureTask;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.loommpm.config.ChildPolicy;
import org.loommpm.config.ChildScaling;

/**
 * The dynamic policy under a load step: children are added 1, 2, 4 per maintenance pass while
 * the pool is short of spare slots, up to the MaxRequestWorkers limit, then retired one per pass
 * once the load stops; no request fails.
 *
 * <p>No pass is timed: the test runs each one itself ({@link SupervisorHarness#pass}) once the
 * pool is in the state the pass is meant to see, every slot taken or every slot free. Handlers
 * hold their slots until a gate opens, so a full pool stays full. (Timed passes raced the load on
 * a busy machine: a pass could see a slot freed for a moment, or two exits land in one interval.)
 */
class DynamicPolicyLoadTest {
    private static final int THREADS = 4;

    @Test
    void growsExponentiallyUnderLoadAndShrinksOneAtATime() throws Exception {
        CountDownLatch gate = new CountDownLatch(1);
        List<Integer> started = new CopyOnWriteArrayList<>();
        List<ChildState> exitStates = new CopyOnWriteArrayList<>();
        try (SupervisorHarness.LogCapture log = new SupervisorHarness.LogCapture();
             SupervisorHarness h = new SupervisorHarness((req, res) -> {
                 gate.await();
                 res.send("ok");
             }, c -> c.childPolicy(ChildPolicy.DYNAMIC).startServers(1).threadsPerChild(THREADS).pollersPerChild(1)
                     .minSpareThreads(2).maxSpareThreads(6).maxRequestWorkers(32),
                     s -> s.supervisor.addChildListener(new ChildListener() {
                         @Override
                         public void childStarted(ChildStats child) {
                             started.add(child.id());
                         }

                         @Override
                         public void childExited(ChildStats child) {
                             exitStates.add(child.state());
                         }
                     }), false)) {
            assertEquals(1, h.serving().size());
            Clients clients = new Clients(h.port);
            List<Integer> grown = new ArrayList<>();
            try {
                for (int pass = 0; pass < 5; pass++) {
                    clients.fill(h);
                    h.pass();
                    grown.add(h.serving().size());
                }
            } finally {
                gate.countDown();
            }
            assertEquals(List.of(2, 4, 8, 8, 8), grown, "children started 1, 2, 4 per pass (worker.c's rule), "
                    + "then none beyond MaxRequestWorkers / ThreadsPerChild = 8");
            assertEquals(1, log.withId("LM0807").size(), "reaching MaxRequestWorkers is reported once");
            clients.assertAllAnswered();
            List<Integer> shrunk = new ArrayList<>();
            for (int pass = 0; pass < 8; pass++) {
                SupervisorHarness.waitFor("every slot free", 20, () -> freeSlots(h) == THREADS * h.serving().size());
                h.pass();
                shrunk.add(h.serving().size());
            }
            assertEquals(List.of(7, 6, 5, 4, 3, 2, 1, 1), shrunk, "retired one child per pass after the load, down to one");
            // Counted by the listener, which an exit calls after the child left children().
            SupervisorHarness.waitFor("the retired children exited", 20, () -> exitStates.size() == 7);
            assertEquals(Collections.nCopies(7, ChildState.IDLE_KILLED), exitStates, "retired children show as idle-killed");
            assertEquals(1, h.supervisor.children().size());
            assertEquals(8, started.size(), "no child started after the load stopped: " + started);
            assertTrue(SupervisorHarness.get(h.port, 5000).startsWith("HTTP/1.1 200"));
        }
    }

    @Test
    void spamdScalingAddsOneChildPerPass() throws Exception {
        CountDownLatch gate = new CountDownLatch(1);
        try (SupervisorHarness h = new SupervisorHarness((req, res) -> {
                 gate.await();
                 res.send("ok");
             }, c -> c.childPolicy(ChildPolicy.DYNAMIC).childScaling(ChildScaling.SPAMD).startServers(1)
                     .threadsPerChild(THREADS).pollersPerChild(1).minSpareThreads(2).maxSpareThreads(6)
                     .maxRequestWorkers(16), s -> { }, false)) {
            Clients clients = new Clients(h.port);
            List<Integer> grown = new ArrayList<>();
            try {
                for (int pass = 0; pass < 3; pass++) {
                    clients.fill(h);
                    h.pass();
                    grown.add(h.serving().size());
                }
            } finally {
                gate.countDown();
            }
            assertEquals(List.of(2, 3, 4), grown, "spamd: one child per pass, where worker.c starts 1, 2");
            clients.assertAllAnswered();
        }
    }

    /** Free worker slots of the current generation's children that are not draining. */
    private static int freeSlots(SupervisorHarness h) {
        int free = 0;
        for (Child c : h.serving()) {
            free += c.freeSlots();
        }
        return free;
    }

    /**
     * Clients of one request each on a connection of its own, answered once the gate opens. A
     * poller accepts whatever is queued while its pool still looks free, so how many connections
     * a child takes is not known in advance: {@link #fill} adds clients one at a time, whenever
     * none is left queued, until every slot is taken. Test thread only.
     */
    private static final class Clients {
        private final int port;
        private final List<FutureTask<String>> requests = new ArrayList<>();

        Clients(int port) {
            this.port = port;
        }

        void fill(SupervisorHarness h) throws InterruptedException {
            SupervisorHarness.waitFor("every slot taken", 20, () -> {
                if (freeSlots(h) == 0) {
                    return true;
                }
                int accepted = 0;
                for (ChildStats c : h.supervisor.children()) {
                    accepted += c.openConnections();
                }
                if (requests.size() <= accepted) {
                    FutureTask<String> r = new FutureTask<>(() -> SupervisorHarness.get(port, 60_000));
                    requests.add(r);
                    Thread.ofPlatform().start(r);
                }
                return false;
            });
        }

        /** Every request was answered 200 (a failure rethrown as it happened). After the gate opened. */
        void assertAllAnswered() throws Exception {
            for (FutureTask<String> r : requests) {
                String response = r.get(60, TimeUnit.SECONDS);
                assertTrue(response.startsWith("HTTP/1.1 200"), "no request fails while the pool grows: " + response);
            }
        }
    }
}
