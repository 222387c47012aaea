package org.loommpm.websocket.server;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/**
 * {@link CallbackGate}'s contract under contention: workers enter and leave (some nested) while
 * another thread ends the socket at a random moment; on every round exactly one call says "run
 * onClose", and at that moment no worker that entered is still inside. As in the server, nothing
 * enters once the end is decided (the frame loop, or the poller, delivers no more frames to an
 * ended socket): here a lock orders those two decisions, and nothing else.
 */
class CallbackGateStressTest {
    private static final int ROUNDS = 500;
    private static final int WORKERS = 4;

    @Test
    void onCloseRunsOnceAndNeverBesideACallback() throws Exception {
        for (int round = 0; round < ROUNDS; round++) {
            CallbackGate gate = new CallbackGate();
            AtomicInteger inside = new AtomicInteger();
            AtomicInteger runs = new AtomicInteger();
            AtomicInteger overlaps = new AtomicInteger();
            CountDownLatch go = new CountDownLatch(1);
            Object delivery = new Object();
            boolean[] ended = {false};
            Runnable close = () -> {
                runs.incrementAndGet();
                if (inside.get() != 0) {
                    overlaps.incrementAndGet();
                }
            };
            List<Thread> threads = new ArrayList<>();
            for (int w = 0; w < WORKERS; w++) {
                int entries = 1 + w % 2; // half of the workers nest (the reader inside a serve)
                threads.add(Thread.ofPlatform().start(() -> {
                    await(go);
                    synchronized (delivery) {
                        if (ended[0]) {
                            return;
                        }
                        for (int i = 0; i < entries; i++) {
                            gate.enter();
                        }
                    }
                    inside.incrementAndGet();
                    Thread.onSpinWait();
                    inside.decrementAndGet();
                    for (int i = 0; i < entries; i++) {
                        if (gate.leave()) {
                            close.run();
                        }
                    }
                }));
            }
            int spin = ThreadLocalRandom.current().nextInt(200);
            threads.add(Thread.ofPlatform().start(() -> {
                await(go);
                for (int i = 0; i < spin; i++) {
                    Thread.onSpinWait();
                }
                boolean run;
                synchronized (delivery) {
                    ended[0] = true;
                    run = gate.end();
                }
                if (run) {
                    close.run();
                }
            }));
            go.countDown();
            for (Thread t : threads) {
                t.join();
            }
            assertEquals(1, runs.get(), "round " + round + ": onClose runs exactly once");
            assertEquals(0, overlaps.get(), "round " + round + ": onClose ran beside a callback");
        }
    }

    private static void await(CountDownLatch go) {
        try {
            go.await();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
