package org.loommpm.engine;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;
import org.loommpm.spi.WorkerTask;

/** The pool's two pending lanes: FIFO each, alternating while both hold tasks, neither starving. */
class PendingLanesTest {
    private static WorkerTask task(boolean newcomer) {
        return new WorkerTask() {
            @Override
            public void run(int slot) {
            }

            @Override
            public boolean newcomer() {
                return newcomer;
            }
        };
    }

    @Test
    void lanesAlternateWhileBothHoldTasksAndEachIsFifo() {
        PendingLanes q = new PendingLanes();
        WorkerTask r1 = task(false);
        WorkerTask r2 = task(false);
        WorkerTask r3 = task(false);
        WorkerTask n1 = task(true);
        WorkerTask n2 = task(true);
        for (WorkerTask t : new WorkerTask[] {r1, r2, r3, n1, n2}) {
            q.offer(t);
        }
        assertEquals(5, q.size());
        assertEquals(2, q.newcomers());
        assertSame(n1, q.poll());
        assertSame(r1, q.poll());
        assertSame(n2, q.poll());
        assertSame(r2, q.poll());
        assertSame(r3, q.poll(), "the newcomer lane is empty: the regulars go on");
        assertTrue(q.isEmpty());
        assertNull(q.poll());
        assertEquals(0, q.size());
        assertEquals(0, q.newcomers());
    }

    /** A steady stream of newcomers does not starve the regulars, nor the reverse. */
    @Test
    void neitherLaneStarves() {
        PendingLanes q = new PendingLanes();
        for (int i = 0; i < 100; i++) {
            q.offer(task(false));
            q.offer(task(true));
        }
        int newcomers = 0;
        for (int i = 0; i < 100; i++) {
            if (q.poll().newcomer()) {
                newcomers++;
            }
            q.offer(task(true));
        }
        assertEquals(50, newcomers, "every other task taken is a newcomer");
    }

    /** An empty lane keeps its turn: the next newcomer goes first once the regulars ran alone. */
    @Test
    void aLaneThatHadNothingComesFirstWhenItHas() {
        PendingLanes q = new PendingLanes();
        q.offer(task(false));
        q.offer(task(false));
        assertTrue(!q.poll().newcomer());
        WorkerTask n = task(true);
        q.offer(n);
        assertSame(n, q.poll());
    }
}
