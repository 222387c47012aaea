package org.loommpm.engine;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.RepeatedTest;
import org.junit.jupiter.api.Test;
import org.loommpm.spi.WorkerTask;

class WorkerPoolTest {
    @Test
    void countsIdlePendingActiveAndRunsEverything() throws Exception {
        WorkerPool pool = new WorkerPool(4, new FailStop());
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
        WorkerPool pool = new WorkerPool(2, new FailStop());
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
        assertEquals(WorkerTask.NO_SLOT, ownerSlot.get());
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
        WorkerPool pool = new WorkerPool(size, new FailStop());
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
    /** A lending task that reclaims and reports its slot as it changed. */
    private static class Lender implements WorkerTask {
        final WorkerPool pool;
        final CountDownLatch lent = new CountDownLatch(1);
        final CountDownLatch resume;
        final CountDownLatch done = new CountDownLatch(1);
        volatile int slot;

        Lender(WorkerPool pool, CountDownLatch resume) {
            this.pool = pool;
            this.resume = resume;
        }

        @Override
        public void run(int start) {
            slot = start;
            pool.lend(slot);
            lent.countDown();
            try {
                resume.await();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            slot = pool.reclaim();
            done.countDown();
        }

        @Override
        public int slotAfterRun(int start) {
            return slot;
        }
    }

    /** A task waiting on its peer lends its slot: others run on it, and it reclaims one after. */
    @Test
    void aLentSlotRunsOtherTasksAndIsReclaimed() throws Exception {
        WorkerPool pool = new WorkerPool(1, new FailStop());
        CountDownLatch resume = new CountDownLatch(1);
        Lender lender = new Lender(pool, resume);
        pool.dispatch(lender);
        assertTrue(lender.lent.await(5, TimeUnit.SECONDS));
        CountDownLatch other = new CountDownLatch(1);
        CountDownLatch otherRelease = new CountDownLatch(1);
        pool.dispatch(slot -> {
            other.countDown();
            try {
                otherRelease.await();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        });
        // The only slot was lent: the second task runs on it while the first waits.
        assertTrue(other.await(5, TimeUnit.SECONDS));
        assertEquals(1, pool.active());
        resume.countDown();
        // No slot is free: the lender parks until the other task releases its slot.
        Thread.sleep(100);
        assertEquals(1, lender.done.getCount());
        otherRelease.countDown();
        assertTrue(lender.done.await(5, TimeUnit.SECONDS));
        waitFor(() -> pool.active() == 0);
        assertEquals(1, pool.idle());
        assertEquals("_", pool.scoreboard().render());
    }

    /** Many lenders and ordinary tasks on few slots: every task ends, no slot is lost or doubled. */
    @RepeatedTest(5)
    void lendingUnderContentionLosesNoSlot() throws Exception {
        WorkerPool pool = new WorkerPool(3, new FailStop());
        CountDownLatch all = new CountDownLatch(400);
        AtomicInteger running = new AtomicInteger();
        AtomicInteger most = new AtomicInteger();
        for (int i = 0; i < 200; i++) {
            pool.dispatch(slot -> {
                most.accumulateAndGet(running.incrementAndGet(), Math::max);
                running.decrementAndGet();
                all.countDown();
            });
            CountDownLatch resume = new CountDownLatch(0);
            pool.dispatch(new Lender(pool, resume) {
                @Override
                public void run(int start) {
                    most.accumulateAndGet(running.incrementAndGet(), Math::max);
                    running.decrementAndGet();
                    super.run(start);
                    most.accumulateAndGet(running.incrementAndGet(), Math::max);
                    running.decrementAndGet();
                    all.countDown();
                }
            });
        }
        assertTrue(all.await(20, TimeUnit.SECONDS));
        waitFor(() -> pool.active() == 0);
        assertTrue(most.get() <= 3, "ran at once: " + most.get());
        assertEquals(3, pool.idle());
        assertEquals("___", pool.scoreboard().render());
    }

    /** A pending task of a given lane that records the order the tasks ran in. */
    private record Tagged(String name, boolean newcomer, java.util.List<String> order, CountDownLatch done)
            implements WorkerTask {
        @Override
        public void run(int slot) {
            order.add(name);
            done.countDown();
        }
    }

    /**
     * One slot, busy; ten keep-alive connections' next requests queue, then a new connection's
     * first request. With a single FIFO the newcomer ran last (after all ten); with the lanes it
     * runs as soon as the slot frees up, then the lanes alternate.
     */
    @Test
    void aNewcomerDoesNotWaitBehindEveryQueuedRegular() throws Exception {
        WorkerPool pool = new WorkerPool(1, new FailStop());
        CountDownLatch release = new CountDownLatch(1);
        pool.dispatch(slot -> {
            try {
                release.await();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        });
        java.util.List<String> order = java.util.Collections.synchronizedList(new java.util.ArrayList<>());
        CountDownLatch done = new CountDownLatch(13);
        for (int i = 0; i < 10; i++) {
            pool.dispatch(new Tagged("ka" + i, false, order, done));
        }
        pool.dispatch(new Tagged("new0", true, order, done));
        pool.dispatch(new Tagged("new1", true, order, done));
        pool.dispatch(new Tagged("new2", true, order, done));
        assertEquals(13, pool.pending());
        assertEquals(3, pool.pendingNewcomers());
        release.countDown();
        assertTrue(done.await(10, TimeUnit.SECONDS));
        assertEquals(java.util.List.of("new0", "ka0", "new1", "ka1", "new2", "ka2", "ka3", "ka4", "ka5", "ka6",
                "ka7", "ka8", "ka9"), order);
        waitFor(() -> pool.active() == 0);
        assertEquals(0, pool.pendingNewcomers());
    }
}
