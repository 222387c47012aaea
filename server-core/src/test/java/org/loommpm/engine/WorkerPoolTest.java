package org.loommpm.engine;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.RepeatedTest;
import org.junit.jupiter.api.Test;

class WorkerPoolTest {
    @Test
    void countsIdlePendingActiveAndRunsEverything() throws Exception {
        WorkerPool pool = new WorkerPool(4, () -> { });
        CountDownLatch release = new CountDownLatch(1);
        CountDownLatch done = new CountDownLatch(10);
        for (int i = 0; i < 10; i++) {
            pool.dispatch(slot -> {
                try {
                    release.await();
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
                done.countDown();
            });
        }
        assertEquals(4, pool.active());
        assertEquals(0, pool.idle());
        assertEquals(6, pool.pending());
        waitFor(() -> pool.scoreboard().render().equals("RRRR"));
        release.countDown();
        assertTrue(done.await(10, TimeUnit.SECONDS));
        waitFor(() -> pool.active() == 0);
        assertEquals(4, pool.idle());
        assertEquals(0, pool.pending());
        assertEquals("____", pool.scoreboard().render());
    }

    /** A multiplexed connection's owner runs even when its own waiting tasks hold every slot. */
    @Test
    void ownerTaskRunsWhenEverySlotIsTaken() throws Exception {
        WorkerPool pool = new WorkerPool(2, () -> { });
        CountDownLatch ownerRan = new CountDownLatch(1);
        CountDownLatch tasksDone = new CountDownLatch(3);
        for (int i = 0; i < 3; i++) {
            pool.dispatch(slot -> {
                try {
                    ownerRan.await(); // a stream task waiting for its connection's frame loop
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
                tasksDone.countDown();
            });
        }
        assertEquals(1, pool.pending());
        java.util.concurrent.atomic.AtomicInteger ownerSlot = new java.util.concurrent.atomic.AtomicInteger(99);
        pool.dispatchOwner(slot -> {
            ownerSlot.set(slot);
            ownerRan.countDown();
        });
        assertTrue(ownerRan.await(10, TimeUnit.SECONDS), "the owner ran although no slot was free");
        assertEquals(WorkerPool.NO_SLOT, ownerSlot.get());
        assertTrue(tasksDone.await(10, TimeUnit.SECONDS));
        waitFor(() -> pool.active() == 0);
        // With a free slot the owner takes it like any task.
        CountDownLatch second = new CountDownLatch(1);
        pool.dispatchOwner(slot -> {
            ownerSlot.set(slot);
            second.countDown();
        });
        assertTrue(second.await(10, TimeUnit.SECONDS));
        assertTrue(ownerSlot.get() >= 0);
    }

    /** Many dispatching threads, short tasks: every task runs once, never more than the slots. */
    @RepeatedTest(3)
    void neverMoreThanSizeRunningAndNoTaskLost() throws Exception {
        int size = 8;
        WorkerPool pool = new WorkerPool(size, () -> { });
        AtomicInteger running = new AtomicInteger();
        AtomicInteger maxRunning = new AtomicInteger();
        AtomicInteger ran = new AtomicInteger();
        ConcurrentHashMap<Integer, Boolean> slotsInUse = new ConcurrentHashMap<>();
        AtomicInteger slotClash = new AtomicInteger();
        int dispatchers = 4;
        int perDispatcher = 20_000;
        Thread[] ts = new Thread[dispatchers];
        for (int d = 0; d < dispatchers; d++) {
            ts[d] = Thread.ofPlatform().start(() -> {
                for (int i = 0; i < perDispatcher; i++) {
                    pool.dispatch(slot -> {
                        if (slotsInUse.putIfAbsent(slot, Boolean.TRUE) != null) {
                            slotClash.incrementAndGet();
                        }
                        int r = running.incrementAndGet();
                        maxRunning.accumulateAndGet(r, Math::max);
                        Thread.onSpinWait();
                        running.decrementAndGet();
                        slotsInUse.remove(slot);
                        ran.incrementAndGet();
                    });
                }
            });
        }
        for (Thread t : ts) {
            t.join();
        }
        waitFor(() -> ran.get() == dispatchers * perDispatcher);
        waitFor(() -> pool.active() == 0 && pool.pending() == 0);
        assertEquals(dispatchers * perDispatcher, ran.get());
        assertTrue(maxRunning.get() <= size, "ran " + maxRunning.get() + " at once with " + size + " slots");
        assertEquals(0, slotClash.get(), "two tasks held the same slot");
        assertEquals(size, pool.idle());
    }

    static void waitFor(java.util.function.BooleanSupplier cond) throws InterruptedException {
        long end = System.nanoTime() + TimeUnit.SECONDS.toNanos(20);
        while (!cond.getAsBoolean()) {
            if (System.nanoTime() > end) {
                throw new AssertionError("condition not reached in 20 s");
            }
            Thread.sleep(5);
        }
    }
}
