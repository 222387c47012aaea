package org.loommpm.engine;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.loommpm.config.ChildScaling;

/** The worker MPM's spare-thread rule: exponential spawn (or spamd's one at a time), one retirement at a time, the limits. */
class DynamicPoolTest {
    private static final int MIN = 2;
    private static final int MAX = 6;

    @Test
    void spawnRateDoublesWhileShortUpToThirtyTwo() {
        DynamicPool pool = new DynamicPool();
        List<Integer> spawned = new ArrayList<>();
        int children = 1;
        for (int i = 0; i < 8; i++) {
            DynamicPool.Decision d = pool.decide(0, children, 1000, MIN, MAX);
            spawned.add(d.spawn());
            children += d.spawn();
        }
        assertEquals(List.of(1, 2, 4, 8, 16, 32, 32, 32), spawned);
    }

    @Test
    void spamdScalingGrowsAndShrinksOneChildAtATime() {
        DynamicPool pool = new DynamicPool();
        List<Integer> spawned = new ArrayList<>();
        int children = 1;
        for (int i = 0; i < 8; i++) {
            DynamicPool.Decision d = pool.decide(0, children, 1000, MIN, MAX, ChildScaling.SPAMD);
            spawned.add(d.spawn());
            children += d.spawn();
        }
        assertEquals(List.of(1, 1, 1, 1, 1, 1, 1, 1), spawned, "never more than one per interval");
        int retired = 0;
        for (int i = 0; i < 3; i++) {
            DynamicPool.Decision d = pool.decide(100, children, 1000, MIN, MAX, ChildScaling.SPAMD);
            assertEquals(0, d.spawn());
            retired += d.retireOne() ? 1 : 0;
        }
        assertEquals(3, retired, "one retirement per interval");
    }

    @Test
    void rateFallsBackToOneWhenSatisfiedOrRetiring() {
        DynamicPool pool = new DynamicPool();
        pool.decide(0, 1, 100, MIN, MAX);
        pool.decide(0, 2, 100, MIN, MAX);
        assertEquals(4, pool.spawnRate());
        assertEquals(DynamicPool.Decision.NONE, pool.decide(MIN, 4, 100, MIN, MAX), "enough spares: nothing");
        assertEquals(1, pool.spawnRate());
        pool.decide(0, 4, 100, MIN, MAX);
        assertEquals(2, pool.spawnRate());
        assertTrue(pool.decide(MAX + 1, 5, 100, MIN, MAX).retireOne());
        assertEquals(1, pool.spawnRate());
        pool.decide(0, 4, 100, MIN, MAX);
        pool.reset();
        assertEquals(1, pool.spawnRate(), "a graceful restart starts the rate over");
    }

    @Test
    void retiresOneChildAtATimeAndNeverTheLast() {
        DynamicPool pool = new DynamicPool();
        DynamicPool.Decision d = pool.decide(40, 10, 100, MIN, MAX);
        assertTrue(d.retireOne());
        assertEquals(0, d.spawn());
        assertEquals(DynamicPool.Decision.NONE, pool.decide(MAX, 3, 100, MIN, MAX), "at MaxSpareThreads: keep");
        assertFalse(pool.decide(MAX + 1, 1, 100, MIN, MAX).retireOne(), "one child is never retired");
    }

    @Test
    void neverStartsBeyondTheChildLimit() {
        DynamicPool pool = new DynamicPool();
        int children = 1;
        List<Integer> spawned = new ArrayList<>();
        for (int i = 0; i < 6; i++) {
            DynamicPool.Decision d = pool.decide(0, children, 8, MIN, MAX);
            spawned.add(d.spawn());
            children += d.spawn();
        }
        assertEquals(List.of(1, 2, 4, 0, 0, 0), spawned);
        assertEquals(8, children);
        assertEquals(1, pool.spawnRate(), "at the limit the rate starts over");
        assertEquals(3, pool.decide(0, 5, 8, MIN, MAX).spawn() + pool.decide(0, 5, 8, MIN, MAX).spawn(),
                "near the limit only the room left is used: 1, then 2");
    }
}
