package org.loommpm.engine;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Random;
import java.util.Set;
import org.junit.jupiter.api.Test;

class TimerRingTest {
    static final class T extends TimerRing.Timer {
        T(long id) {
            super(id);
        }
    }

    @Test
    void laneExpiresInDeadlineOrder() {
        TimerRing ring = new TimerRing();
        T a = new T(1);
        T b = new T(2);
        ring.schedule(a, 100, 0);
        ring.schedule(b, 100, 10);
        assertEquals(100, ring.nextDeadline());
        assertNull(ring.pollExpired(99));
        assertSame(a, ring.pollExpired(100));
        assertNull(ring.pollExpired(109));
        assertSame(b, ring.pollExpired(110));
        assertEquals(Long.MAX_VALUE, ring.nextDeadline());
        assertEquals(0, ring.size());
    }

    @Test
    void equalDeadlinesAreAllKeptAndAllExpire() {
        TimerRing ring = new TimerRing();
        List<T> timers = new ArrayList<>();
        for (int i = 0; i < 50; i++) {
            T t = new T(i);
            timers.add(t);
            ring.scheduleAt(t, 1_000);
        }
        for (int i = 0; i < 50; i++) {
            T t = new T(100 + i);
            timers.add(t);
            ring.schedule(t, 1_000, 0);
        }
        assertEquals(100, ring.size(), "same deadline must not collapse timers");
        Set<TimerRing.Timer> fired = new HashSet<>();
        TimerRing.Timer t;
        while ((t = ring.pollExpired(1_000)) != null) {
            assertTrue(fired.add(t), "a timer fired twice");
        }
        assertEquals(100, fired.size());
    }

    @Test
    void cancelAndRescheduleReplaceTheDeadline() {
        TimerRing ring = new TimerRing();
        T a = new T(1);
        T b = new T(2);
        T c = new T(3);
        ring.schedule(a, 100, 0);
        ring.schedule(b, 100, 0);
        ring.schedule(c, 100, 0);
        assertTrue(ring.cancel(b));
        assertFalse(ring.cancel(b));
        assertFalse(ring.isScheduled(b));
        ring.scheduleAt(a, 500); // moves from the lane to the sorted set
        assertEquals(2, ring.size());
        assertSame(c, ring.pollExpired(100));
        assertNull(ring.pollExpired(499));
        assertSame(a, ring.pollExpired(500));
    }

    @Test
    void randomScheduleCancelMatchesAModel() {
        Random rnd = new Random(42);
        TimerRing ring = new TimerRing();
        List<T> all = new ArrayList<>();
        for (int i = 0; i < 500; i++) {
            all.add(new T(i));
        }
        long now = 0;
        Set<T> live = new HashSet<>();
        for (int step = 0; step < 20_000; step++) {
            T t = all.get(rnd.nextInt(all.size()));
            switch (rnd.nextInt(4)) {
                case 0 -> { ring.schedule(t, 50 + 50L * rnd.nextInt(3), now); live.add(t); }
                case 1 -> { ring.scheduleAt(t, now + rnd.nextInt(300)); live.add(t); }
                case 2 -> { assertEquals(live.remove(t), ring.cancel(t)); }
                default -> {
                    now += rnd.nextInt(20);
                    TimerRing.Timer e;
                    while ((e = ring.pollExpired(now)) != null) {
                        assertTrue(e.deadline <= now);
                        assertTrue(live.remove(e), "expired a timer that was not live");
                    }
                    assertTrue(ring.nextDeadline() > now);
                }
            }
            assertEquals(live.size(), ring.size());
        }
    }
}
