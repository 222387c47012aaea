package org.loommpm.engine;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.concurrent.BrokenBarrierException;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import java.util.concurrent.locks.LockSupport;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.loommpm.spi.WorkerTask;

/**
 * Lost wake-ups in {@link WorkerPool}: platform threads dispatch a mix of tasks into a small pool
 * (plain ones, newcomers, tasks that lend their slot, wait and reclaim one, tasks that dispatch
 * more from a worker, owner tasks), all at once, in short rounds that each end with the pool
 * quiet. A lost wake-up leaves a task queued with a free slot or a reclaimer parked beside one,
 * and with nothing more dispatched in that round nothing wakes it: the round never finishes,
 * and the test fails with the pool's counts after a bounded wait instead of hanging. When they do finish, the
 * counts must all be back to zero and no more tasks than slots may have run at once.
 */
class WorkerPoolStressTest {
    private static final int DISPATCHERS = 4;
    /** Rounds, each ending when the pool is quiet: where a lost wake-up strands a task. */
    private static final int ROUNDS = 2_000;
    private static final int PER_ROUND = 8;

    @ParameterizedTest(name = "ThreadsPerChild {0}")
    @ValueSource(ints = {1, 2, 3, 8})
    void everyTaskRunsAndTheCountsReturnToZero(int size) throws Exception {
        WorkerPool pool = new WorkerPool(size, new FailStop());
        AtomicInteger holding = new AtomicInteger();
        AtomicInteger most = new AtomicInteger();
        AtomicInteger ran = new AtomicInteger();
        CyclicBarrier start = new CyclicBarrier(DISPATCHERS + 1);
        AtomicReference<CountDownLatch> round = new AtomicReference<>();
        Thread[] dispatchers = new Thread[DISPATCHERS];
        for (int d = 0; d < DISPATCHERS; d++) {
            dispatchers[d] = Thread.ofPlatform().daemon().start(() -> {
                try {
                    for (int r = 0; r < ROUNDS; r++) {
                        start.await();
                        dispatchSome(pool, round.get(), holding, most, ran);
                    }
                } catch (InterruptedException | BrokenBarrierException e) {
                    Thread.currentThread().interrupt();
                }
            });
        }
        try {
            for (int r = 0; r < ROUNDS; r++) {
                // Each dispatched unit counts down twice (see dispatchSome).
                CountDownLatch done = new CountDownLatch(DISPATCHERS * PER_ROUND * 2);
                round.set(done);
                start.await(10, TimeUnit.SECONDS);
                int n = r;
                assertTrue(done.await(10, TimeUnit.SECONDS), () -> "round " + n + ": tasks left " + done.getCount()
                        + ", active " + pool.active() + ", pending " + pool.pending() + ", idle " + pool.idle()
                        + ", scoreboard " + pool.scoreboard().render());
            }
        } finally {
            for (Thread t : dispatchers) {
                t.interrupt();
            }
        }
        WorkerPoolTest.waitFor(() -> pool.active() == 0 && pool.pending() == 0);
        assertEquals(size, pool.idle());
        assertEquals(0, pool.pendingNewcomers());
        assertEquals("_".repeat(size), pool.scoreboard().render());
        assertTrue(most.get() <= size, "tasks holding a slot at once: " + most.get() + " with " + size + " slots");
    }

    /** One dispatcher's share of a round: a random mix, each unit counting {@code done} down twice. */
    private static void dispatchSome(WorkerPool pool, CountDownLatch done, AtomicInteger holding,
                                     AtomicInteger most, AtomicInteger ran) {
        ThreadLocalRandom rnd = ThreadLocalRandom.current();
        for (int i = 0; i < PER_ROUND; i++) {
            switch (rnd.nextInt(4)) {
                case 0 -> {
                    pool.dispatch(new Counted(holding, most, ran, done, rnd.nextBoolean()));
                    done.countDown();
                }
                case 1 -> pool.dispatch(new LendingTask(pool, holding, most, ran, done));
                case 2 -> pool.dispatch(slot -> {
                    // A worker dispatching (an HTTP/2 frame loop starting a stream).
                    pool.dispatch(new Counted(holding, most, ran, done, false));
                    ran.incrementAndGet();
                    done.countDown();
                });
                default -> {
                    pool.dispatchOwner(slot -> {
                        ran.incrementAndGet();
                        done.countDown();
                    });
                    pool.dispatch(new Counted(holding, most, ran, done, true));
                }
            }
        }
    }

    /** A short task holding its slot. */
    private record Counted(AtomicInteger holding, AtomicInteger most, AtomicInteger ran, CountDownLatch done,
                           boolean newcomer) implements WorkerTask {
        @Override
        public void run(int slot) {
            most.accumulateAndGet(holding.incrementAndGet(), Math::max);
            Thread.onSpinWait();
            holding.decrementAndGet();
            ran.incrementAndGet();
            done.countDown();
        }
    }

    /** Lends its slot, waits a moment for its "peer", reclaims one and runs on (an HTTP/2 stream's write). */
    private static final class LendingTask implements WorkerTask {
        private final WorkerPool pool;
        private final AtomicInteger holding;
        private final AtomicInteger most;
        private final AtomicInteger ran;
        private final CountDownLatch done;
        private int slot;

        LendingTask(WorkerPool pool, AtomicInteger holding, AtomicInteger most, AtomicInteger ran,
                    CountDownLatch done) {
            this.pool = pool;
            this.holding = holding;
            this.most = most;
            this.ran = ran;
            this.done = done;
        }

        @Override
        public void run(int start) {
            most.accumulateAndGet(holding.incrementAndGet(), Math::max);
            holding.decrementAndGet();
            pool.lend(start);
            if (ThreadLocalRandom.current().nextBoolean()) {
                LockSupport.parkNanos(10_000);
            } else {
                Thread.yield();
            }
            slot = pool.reclaim();
            most.accumulateAndGet(holding.incrementAndGet(), Math::max);
            holding.decrementAndGet();
            ran.incrementAndGet();
            done.countDown();
            done.countDown();
        }

        @Override
        public int slotAfterRun(int start) {
            return slot;
        }
    }
}
